import { expect, test } from "@playwright/test";
import { CALM, expectNoSidewaysScroll, setKnobs, submitJob, waitForOutcome } from "./dashboard-helpers";

const num = (s: string | null) => Number((s ?? "").replace(/[^\d]/g, ""));

test("overview: tiles and a ledger that adds up, refreshed live", async ({ page }) => {
  test.setTimeout(120_000);
  const previous = await setKnobs(page, { ...CALM, failureRate: 0 });
  try {
    const jobId = await submitJob(page, { kind: "extract", url: "https://example.com/e2e-overview" });
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    for (const title of ["Ledger", "Jobs by platform status", "Queue", "Webhook deliveries, last hour", "Dead letters", "Last reconciliation"]) {
      await expect(page.getByRole("region", { name: title })).toBeVisible();
    }
    // The figures refresh on their own: the job submitted above shows up as stored without a reload.
    await waitForOutcome(page, jobId, "stored");
    await expect.poll(async () => num(await page.getByTestId("ledger-stored").textContent()), { timeout: 20_000 }).toBeGreaterThan(0);

    const known = num(await page.getByTestId("ledger-known").textContent());
    const parts = await Promise.all(["stored", "resubmitted", "dead_lettered", "cancelled", "pending"].map(async (k) => num(await page.getByTestId(`ledger-${k}`).textContent())));
    expect(parts.reduce((a, b) => a + b, 0)).toBe(known);
    await expect(page.getByRole("region", { name: "Ledger" }).getByText("Pending by age")).toBeVisible();
    await page.screenshot({ path: "test-results/screenshots/overview.png", fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: "test-results/screenshots/overview-phone.png", fullPage: true });
  } finally {
    await setKnobs(page, previous);
  }
});
