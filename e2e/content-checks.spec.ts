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
        // Pages that mention an invoice fail their check at every rung: they end failed with the excerpt.
        checks: { mustNotContain: [{ text: "invoice" }] },
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

async function runOf(page: import("@playwright/test").Page, runId: string) {
  return unwrap((await tallyApi(page)).GET("/api/runs/{runId}", { params: { path: { runId } } }));
}
