import { expect, test, operatorPage } from "./fixtures";
import { CALM, expectNoSidewaysScroll, setKnobs } from "./dashboard-helpers";
import { unwrap } from "../lib/api-client";
import { tallyApi } from "./api";

// Content checks in the browser (issue 39): a run whose pages fail a check or come back BLOCKED climbs
// its ladder; the run page shows the spend per rung, and the URL list the failing check, its excerpt
// (as text) and the rungs tried, at desktop and phone widths.

let previous: Record<string, number | number[]> = {};
test.beforeAll(async ({ browser, tally }) => {
  const page = await operatorPage(browser, tally);
  previous = await setKnobs(page, {
    ...CALM,
    failureRate: 0,
    itemFailureRate: 0,
    webhookDuplicateRate: 0,
    webhookDelayRate: 0,
    jobDurationMs: [300, 1500],
  });
  await page.close();
});
test.afterAll(async ({ browser, tally }) => {
  const page = await operatorPage(browser, tally);
  await setKnobs(page, previous);
  await page.close();
});

test("content checks: suspect and escalated URLs with their check, excerpt and rungs; spend per rung", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const urls = [
    ...Array.from({ length: 30 }, (_, i) => `https://shop.example/catalogue/item-${i}`),
    ...Array.from({ length: 4 }, (_, i) => `https://guarded.example/item-blocked/${i}`),
  ];
  const run = await unwrap(
    (await tallyApi(page)).POST("/api/runs", {
      body: {
        name: "checked catalogue",
        urls,
        // Pages headed "item 1", "item 10" … "item 19" fail their check at every rung: they end failed with
        // the excerpt (the demo's pages of 20–200 KB all mention an invoice, so a word of the text will not do).
        checks: { mustNotContain: [{ text: "item 1" }] },
      },
    }),
  );
  await expect
    .poll(async () => (await runOf(page, run.id)).state, { timeout: 120_000, intervals: [1000] })
    .toBe("completed");
  const done = await runOf(page, run.id);
  expect(done.counts.failed).toBeGreaterThan(0);
  expect(done.rungs?.length).toBeGreaterThan(1);

  for (const [width, tag] of [
    [1280, "desktop"],
    [390, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto(`/runs/${run.id}`);
    await expect(page.getByRole("heading", { name: "checked catalogue" })).toBeVisible();
    const rungs = page.getByRole("table", { name: "Batches, URLs and tokens per rung" });
    await expect(rungs).toContainText("proxy residential");
    const list = page.getByRole("table", { name: "URLs of the run" });
    await expect(list).toContainText("content_check_failed");
    await expect(
      list
        .getByText(/rungs tried: plain → render_js/)
        .locator("visible=true")
        .first(),
    ).toBeVisible();
    await expect(
      list
        .getByText(/mustNotContain\[0\]/)
        .locator("visible=true")
        .first(),
    ).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `test-results/screenshots/run-checks-${tag}.png`, fullPage: true });
    await rungs.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/run-checks-${tag}-view.png` });
    await page.getByRole("combobox").selectOption("stored");
    await expect(list.getByText("platform:BLOCKED").locator("visible=true").first()).toBeVisible();
    await page.screenshot({ path: `test-results/screenshots/run-checks-escalated-${tag}.png`, fullPage: true });
    await list.getByText("platform:BLOCKED").locator("visible=true").first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screenshots/run-checks-escalated-${tag}-view.png` });
  }
});

test("new run: the token estimate and the ladder's extra cost before creating, a cap below the estimate refused", async ({
  page,
}) => {
  for (const [width, tag] of [
    [1280, "desktop"],
    [390, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto("/runs/new");
    await page
      .getByLabel(/^URLs/)
      .fill(["https://a.example/1", "https://a.example/2", "https://a.example/3"].join("\n"));
    const estimate = page.getByTestId("token-estimate");
    await expect(estimate).toContainText("3 tokens at the first rung");
    await expect(estimate).toContainText("the most it can cost is 12");
    await page.getByLabel(/^Token cap/).fill("2");
    await expect(page.getByText("is over the cap of 2")).toBeVisible();
    await expect(page.getByRole("button", { name: /Create the run/ })).toBeDisabled();
    await page.getByLabel(/^Token cap/).fill("-1");
    await expect(page.getByText("A whole number of tokens, 1 or more.")).toBeVisible();
    await page.getByLabel(/^Token cap/).fill("5");
    await expect(page.getByRole("button", { name: /Create the run/ })).toBeEnabled();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `test-results/screenshots/run-new-cap-${tag}.png`, fullPage: true });
  }
});

test("new run: checks and the ladder edited on the page; a bad selector refused next to its field, then the run keeps them", async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/runs/new");
  await page.getByLabel(/^Name/).fill("checked on the page");
  await page
    .getByLabel(/^URLs/)
    .fill(Array.from({ length: 12 }, (_, i) => `https://shop.example/catalogue/page-${i}`).join("\n"));
  await page.getByText("Content checks and escalation").click();
  const form = page.getByRole("region", { name: "Content checks" });
  await form.getByRole("button", { name: "Add to “Must not contain”" }).click();
  await form.getByLabel("Must not contain 1: kind").selectOption("selector");
  await form.getByLabel("Must not contain 1", { exact: true }).fill("p:nth-child(");
  const before = (await unwrap((await tallyApi(page)).GET("/api/runs", { params: { query: { limit: 200 } } }))).items
    .length;
  await page.getByRole("button", { name: /Create the run/ }).click();
  await expect(form.getByText(/not a valid CSS selector/)).toBeVisible();
  await expect(page.getByText("The run was not created")).toBeVisible();
  const after = (await unwrap((await tallyApi(page)).GET("/api/runs", { params: { query: { limit: 200 } } }))).items
    .length;
  expect(after).toBe(before);
  // Most simulated catalogue pages mention an invoice: without escalation those fail their check at once.
  await form.getByLabel("Must not contain 1: kind").selectOption("text");
  await form.getByLabel("Must not contain 1", { exact: true }).fill("invoice");
  const ladder = page.getByRole("region", { name: "Escalation ladder" });
  await ladder.getByLabel(/Send suspect or BLOCKED pages again/).uncheck();
  await expect(page.getByTestId("token-estimate")).toContainText("No escalation");
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: "test-results/screenshots/run-new-checks-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: "test-results/screenshots/run-new-checks-phone.png", fullPage: true });
  await page.getByRole("button", { name: /Create the run/ }).click();
  await page.waitForURL((u) => /^\/runs\/[^/]+$/.test(u.pathname) && u.pathname !== "/runs/new");
  const runId = page.url().split("/").at(-1)!;
  // The run's page says what it checks, and that it does not escalate.
  const shown = page.getByRole("region", { name: "Content checks" });
  await expect(shown).toContainText("Must contain none of: “invoice”");
  await expect(shown).toContainText("Escalation: none");
  await expect
    .poll(async () => (await runOf(page, runId)).state, { timeout: 120_000, intervals: [1000] })
    .toBe("completed");
  const done = await runOf(page, runId);
  // One rung only, and the pages that mention an invoice failed their check there.
  expect(done.rungs?.map((r) => r.name)).toEqual(["plain"]);
  expect(done.counts.failed).toBeGreaterThan(0);
  const urls = await unwrap(
    (await tallyApi(page)).GET("/api/runs/{runId}/urls", { params: { path: { runId }, query: { state: "failed" } } }),
  );
  for (const u of urls.items) {
    expect(u.errorCode).toBe("content_check_failed");
    expect(u.rungsTried).toHaveLength(1);
  }
});

async function runOf(page: import("@playwright/test").Page, runId: string) {
  return unwrap((await tallyApi(page)).GET("/api/runs/{runId}", { params: { path: { runId } } }));
}
