import { expect, test } from "./fixtures";
import { CALM, expectNoSidewaysScroll, setKnobs, submitJob, waitForOutcome } from "./dashboard-helpers";
import { watchHydration } from "./hydration";
import { unwrap } from "../lib/api-client";
import { tallyApi } from "./api";

const num = (s: string | null) => Number((s ?? "").replace(/[^\d]/g, ""));

test("overview: tiles and a ledger that adds up, refreshed live", async ({ page }) => {
  test.setTimeout(120_000);
  const previous = await setKnobs(page, { ...CALM, failureRate: 0 });
  try {
    const jobId = await submitJob(page, { kind: "extract", url: "https://example.com/e2e-overview" });
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    for (const title of [
      "Ledger",
      "Jobs by platform status",
      "Queue",
      "Webhook deliveries, last hour",
      "Dead letters",
      "Last reconciliation",
    ]) {
      await expect(page.getByRole("region", { name: title })).toBeVisible();
    }
    // The figures refresh on their own: the job submitted above shows up as stored without a reload.
    await waitForOutcome(page, jobId, "stored");
    await expect
      .poll(async () => num(await page.getByTestId("ledger-stored").textContent()), { timeout: 20_000 })
      .toBeGreaterThan(0);

    const known = num(await page.getByTestId("ledger-known").textContent());
    const parts = await Promise.all(
      ["stored", "resubmitted", "dead_lettered", "cancelled", "pending"].map(async (k) =>
        num(await page.getByTestId(`ledger-${k}`).textContent()),
      ),
    );
    expect(parts.reduce((a, b) => a + b, 0)).toBe(known);
    await expect(page.getByRole("region", { name: "Ledger" }).getByText("Pending by age")).toBeVisible();
    // Items due now, and the rest of the ready ones said to be for later (not "ready in all").
    await expect(page.getByRole("region", { name: "Queue" })).toContainText(/(none|\d+ more) scheduled for later/);
    await page.screenshot({ path: "test-results/screenshots/overview.png", fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: "test-results/screenshots/overview-phone.png", fullPage: true });
  } finally {
    await setKnobs(page, previous);
  }
});

test("overview: the ledger counts items, so a stored batch with failed items is not 100 % content", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const previous = await setKnobs(page, { ...CALM, failureRate: 0, itemFailureRate: 0 });
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/");
    // No line before the first job (a fresh database shows "No jobs yet").
    const shown = await page.getByTestId("ledger-items-failed").count();
    const before = shown > 0 ? num(await page.getByTestId("ledger-items-failed").textContent()) : 0;
    const jobId = await submitJob(page, {
      kind: "batch",
      urls: ["https://shop.example/e2e-ledger/ok", "https://shop.example/e2e-ledger/item-fail-404/gone"],
    });
    await waitForOutcome(page, jobId, "stored");
    // The figures refresh on their own: one more failed item, and the stored jobs say some hold failures.
    await expect
      .poll(async () => num(await page.getByTestId("ledger-items-failed").textContent()), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(before + 1); // at least: the demo trickle may store failed items meanwhile
    const job = await unwrap((await tallyApi(page)).GET("/api/jobs/{jobId}", { params: { path: { jobId } } }));
    expect(job).toHaveProperty("items", { total: 2, stored: 1, failed: 1 });
    await expect(page.getByTestId("ledger-items")).toHaveClass(/amber/);
    await expect(page.getByTestId("ledger-items")).toContainText(/failed \([\d.<>]+ %\)/);
    await expect(page.getByTestId("ledger-stored-with-failed")).toContainText(/\d+ with failed items/);
    await page.screenshot({ path: "test-results/screenshots/overview-items.png", fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: "test-results/screenshots/overview-items-phone.png", fullPage: true });
  } finally {
    await setKnobs(page, previous);
  }
});

test("a live page that hydrates seconds after the server rendered it (a slow phone) matches that render", async ({
  page,
}) => {
  // The scripts arrive 2.5 s after each navigation starts, so the figures the server rendered are
  // stale (older than the 2-s freshness) when React hydrates, and the live query starts a refresh at
  // once. (Held until a moment, not each by 2.5 s: chunks that load chunks would add up.)
  let holdUntil = 0;
  await page.route("**/_next/static/**/*.js", async (route) => {
    await new Promise((r) => setTimeout(r, Math.max(0, holdUntil - Date.now())));
    await route.continue();
  });
  const hydration = watchHydration(page);
  for (const [path, api] of [
    ["/", "/api/overview"],
    ["/budget", "/api/budget"],
  ] as const) {
    holdUntil = Date.now() + 2_500;
    const refreshed = page.waitForResponse((res) => new URL(res.url()).pathname === api, { timeout: 30_000 });
    await page.goto(path);
    await refreshed; // hydrated: the client's first refresh went out and came back
    await expect(page.getByText(/refreshes every \d+ s/)).toBeVisible();
  }
  expect(hydration()).toEqual([]);
});
