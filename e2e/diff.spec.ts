import { expect, operatorPage, test } from "./fixtures";
import { CALM, expectNoSidewaysScroll, postJson, setKnobs } from "./dashboard-helpers";

// Issue 49 item 4: the diff of a small change in a long page shows that change, with a few lines around
// it and the rest collapsed to counts, its replaced words marked, and previous/next links between
// changes; the whole page is one link away. The demo's pages change one paragraph per version.

const SHOTS = "test-results/screenshots";
const urls = ["https://shop.example/diff/long-a", "https://shop.example/diff/long-b"];
let previous: Record<string, number | number[]> = {};
let runId = "";

async function runToEnd(page: import("@playwright/test").Page, collectionId: string): Promise<string> {
  const id = String((await postJson(page, `/api/collections/${collectionId}/run`)).runId);
  await expect
    .poll(async () => ((await (await page.request.get(`/api/runs/${id}`)).json()) as { state?: string }).state, {
      timeout: 120_000,
      intervals: [1000, 2000],
    })
    .toBe("completed");
  return id;
}

test.beforeAll(async ({ browser, tally }) => {
  test.setTimeout(300_000);
  const page = await operatorPage(browser, tally);
  // Long pages (about 200 KB of markdown, some 1,500 paragraphs), each read again changed.
  previous = await setKnobs(page, {
    ...CALM,
    failureRate: 0,
    itemFailureRate: 0,
    contentChangeRate: 0,
    bodyBytes: [200_000, 200_000],
  });
  const c = String((await postJson(page, "/api/collections", { name: "long pages", urls })).id);
  await runToEnd(page, c);
  await setKnobs(page, { contentChangeRate: 1 });
  runId = await runToEnd(page, c);
  await page.close();
});
test.afterAll(async ({ browser, tally }) => {
  const page = await operatorPage(browser, tally);
  await setKnobs(page, previous);
  await page.close();
});

test("a one-paragraph change in a 200 KB page: the change, its context, the rest collapsed, words marked", async ({
  page,
}) => {
  await page.goto(`/runs/${runId}/diff?url=${encodeURIComponent(urls[0])}`);
  await expect(page.getByRole("heading", { level: 1, name: "What changed" })).toBeVisible();
  await expect(page.getByTestId("diff-summary")).toHaveText(/^1 change: 1 line added, 1 removed\./);
  const change = page.getByRole("region", { name: "Change 1 of 1" });
  await expect(change).toBeVisible();
  // The change and at most three lines either side of it; the other lines are counted, not shown.
  const rows = change.locator("[data-kind]");
  expect(await rows.count()).toBeLessThanOrEqual(8);
  await expect(change.locator('[data-kind="removed"]')).toHaveCount(1);
  await expect(change.locator('[data-kind="added"]')).toHaveCount(1);
  await expect(page.getByText(/unchanged lines \(from line/).first()).toBeVisible();
  await expect(page.getByText(/The versions differ/)).toHaveCount(0);
  await expect(page.getByTestId("diff-cut")).toHaveCount(0);
  // The page is short: the change is on the first screen, not at the end of a 40,000 px box.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height).toBeLessThan(3000);
  for (const [width, tag] of [
    [1440, "desktop"],
    [1024, "narrow"],
    [390, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/diff-one-change-${tag}.png`, fullPage: true });
  }

  // The whole page on asking, and back.
  await page.getByRole("link", { name: "The whole page", exact: true }).click();
  await expect(page).toHaveURL(/all=1/);
  expect(await page.locator("[data-kind]").count()).toBeGreaterThan(100);
  await page.getByRole("link", { name: "Only the changes" }).click();
  await expect(page.getByRole("region", { name: "Change 1 of 1" })).toBeVisible();
});
