import { expect, operatorPage, test } from "./fixtures";
import { seriousFindings } from "./axe";
import { CALM, postJson, setKnobs, submitJob, waitForOutcome } from "./dashboard-helpers";

// Accessibility (issue 49): axe-core's WCAG 2.1 A and AA rules on every page, at desktop and phone
// widths, with data in them (a stored job with its body, a finished run, a collection run with a
// changed page and its diff, deliveries, an operation). No serious and no critical finding may remain;
// a failure lists each rule with the elements it found, so the fix is at hand.

const ids = { job: "", operation: "", run: "", collection: "", collectionRun: "", url: "" };

function pages(): string[] {
  return [
    "/",
    "/runs",
    "/runs/new",
    `/runs/${ids.run}`,
    `/runs/${ids.collectionRun}/diff?url=${encodeURIComponent(ids.url)}`,
    "/collections",
    "/collections/new",
    `/collections/${ids.collection}`,
    "/jobs",
    "/jobs/new",
    `/jobs/${ids.job}`,
    "/deliveries",
    "/subscriptions",
    "/dead-letters",
    "/outbound",
    "/operations",
    `/operations/${ids.operation}`,
    "/budget",
    "/alerts",
    "/settings",
    "/settings/tokens",
    "/settings/users",
  ];
}

let previous: Record<string, number | number[]> = {};
test.beforeAll(async ({ browser, tally }) => {
  test.setTimeout(240_000);
  const page = await operatorPage(browser, tally);
  // Every page read again changes, so the second collection run has a diff to show.
  previous = await setKnobs(page, { ...CALM, failureRate: 0, itemFailureRate: 0, contentChangeRate: 1 });
  ids.job = await submitJob(page, { kind: "extract", url: "https://example.com/e2e-a11y" });
  ids.operation = String((await postJson(page, "/api/operations/reconcile")).runId);
  const urls = ["https://shop.example/a11y/a", "https://shop.example/a11y/b"];
  ids.run = String((await postJson(page, "/api/runs", { name: "a11y run", urls })).id);
  ids.collection = String((await postJson(page, "/api/collections", { name: "a11y collection", urls })).id);
  ids.url = urls[0];
  await waitForOutcome(page, ids.job, "stored", 90_000);
  for (let round = 0; round < 2; round++) {
    ids.collectionRun = String((await postJson(page, `/api/collections/${ids.collection}/run`)).runId);
    await expect
      .poll(
        async () => {
          const res = await page.request.get(`/api/runs/${ids.collectionRun}`);
          return ((await res.json()) as { state?: string }).state;
        },
        { timeout: 120_000, intervals: [1000, 2000] },
      )
      .toMatch(/^(completed|cancelled)$/);
  }
  await page.close();
});
test.afterAll(async ({ browser, tally }) => {
  const page = await operatorPage(browser, tally);
  await setKnobs(page, previous);
  await page.close();
});

for (const [width, height, tag] of [
  [1440, 900, "desktop"],
  [390, 844, "phone"],
] as const) {
  test(`axe at ${width} px (${tag}): no serious or critical finding on any page`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width, height });
    const found: string[] = [];
    for (const path of pages()) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      // Lists and charts fill in after the first paint; judge the page as the operator reads it.
      await page.waitForLoadState("networkidle").catch(() => undefined);
      for (const line of await seriousFindings(page)) found.push(`${path}: ${line}`);
    }
    expect(found, found.join("\n")).toEqual([]);
  });
}

test("axe on the sign-in page, at 1440 and 390 px", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const found: string[] = [];
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/login");
    await expect(page.getByRole("button", { name: /sign in/i })).toBeVisible();
    for (const line of await seriousFindings(page)) found.push(`/login at ${width}: ${line}`);
  }
  await context.close();
  expect(found, found.join("\n")).toEqual([]);
});
