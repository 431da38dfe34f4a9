import { expect, test, operatorPage } from "./fixtures";
import { CALM, expectNoSidewaysScroll, setKnobs } from "./dashboard-helpers";
import { unwrap } from "../lib/api-client";
import { tallyApi } from "./api";

// Runs in the browser: a run in progress on /runs and /runs/{id} (progress bar, ETA, platform calls,
// failed URLs with reasons, actions, downloads), and /runs/new's preview before anything is created.

let previous: Record<string, number | number[]> = {};
test.beforeAll(async ({ browser, tally }) => {
  const page = await operatorPage(browser, tally);
  // Slow batches and some item failures, so the run is caught in progress with failures to show.
  previous = await setKnobs(page, { ...CALM, failureRate: 0, itemFailureRate: 0.05, jobDurationMs: [4000, 40_000] });
  await page.close();
});
test.afterAll(async ({ browser, tally }) => {
  const page = await operatorPage(browser, tally);
  await setKnobs(page, previous);
  await page.close();
});

test("runs: a run in progress, its URLs and failures, and the new-run preview", async ({ page }) => {
  test.setTimeout(150_000);
  const urls = Array.from({ length: 600 }, (_, i) => `https://shop.example/catalogue/item-${i}`);
  const run = await unwrap(
    (await tallyApi(page)).POST("/api/runs", { body: { name: "daily catalogue", urls, batchSize: 100 } }),
  );
  const id = run.id;

  // Wait until some of it is stored and some is not yet.
  await expect
    .poll(
      async () => {
        const r = await runOf(page, id);
        return r.counts.stored > 0 && r.counts.stored + r.counts.failed < r.total;
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .toBe(true);

  for (const [width, tag] of [
    [1440, "desktop"],
    [390, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto("/runs");
    await expect(page.getByRole("link", { name: "daily catalogue" }).first()).toBeVisible();
    await expect(page.getByRole("progressbar").first()).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `test-results/screenshots/runs-${tag}.png`, fullPage: true });

    await page.goto(`/runs/${id}`);
    await expect(page.getByRole("heading", { name: "daily catalogue" })).toBeVisible();
    await expect(page.getByText("Platform calls")).toBeVisible();
    await expect(page.getByRole("link", { name: "Download CSV" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel run" })).toBeVisible();
    await expect(page.getByRole("table", { name: "URLs of the run" }).locator("tbody tr").first()).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `test-results/screenshots/run-detail-${tag}.png`, fullPage: true });

    await page.goto("/runs/new");
    await page
      .getByLabel(/^URLs/)
      .fill(
        ["https://a.example/1", "https://a.example/2", "https://a.example/1", "not a url", "", "ftp://x.example"].join(
          "\n",
        ),
      );
    const preview = page.getByRole("region", { name: "Preview" });
    await expect(preview).toContainText("Invalid lines");
    await expect(preview).toContainText("line 4: not a url");
    await expect(page.getByRole("button", { name: /Create the run/ })).toBeDisabled();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `test-results/screenshots/run-new-${tag}.png`, fullPage: true });
  }
});

async function runOf(page: import("@playwright/test").Page, runId: string) {
  return unwrap((await tallyApi(page)).GET("/api/runs/{runId}", { params: { path: { runId } } }));
}

test("a run followed to its end: the URL table agrees with the header once it completes (issue 49 item 3)", async ({
  page,
}) => {
  test.setTimeout(150_000);
  await setKnobs(page, { itemFailureRate: 0, jobDurationMs: [1500, 6000] });
  const urls = Array.from({ length: 12 }, (_, i) => `https://shop.example/followed/item-${i}`);
  const run = await unwrap(
    (await tallyApi(page)).POST("/api/runs", { body: { name: "followed to the end", urls, batchSize: 3 } }),
  );
  // The page is open while the run moves; nothing is reloaded.
  await page.goto(`/runs/${run.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "followed to the end" })).toBeVisible();
  await expect(page.getByText("completed", { exact: true }).first()).toBeVisible({ timeout: 120_000 });
  const table = page.getByRole("table", { name: "URLs of the run" });
  // Within a moment of the header saying completed, every row says stored: none left as submitted.
  await expect(table.getByText("stored", { exact: true })).toHaveCount(12, { timeout: 5_000 });
  await expect(table.getByText(/^(submitted|pending|retrying)$/)).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/run-completed-table.png", fullPage: true });
  await setKnobs(page, { itemFailureRate: 0.05, jobDurationMs: [4000, 40_000] });
});
