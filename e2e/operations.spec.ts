import { expect, test } from "@playwright/test";
import { watchHydration } from "./hydration";
import { expectNoSidewaysScroll } from "./dashboard-helpers";

// Operations: Run reconciliation now with live progress and its summary, the run history of every
// kind, and the operator action landing in the audit log.

test("run reconciliation now: progress, then a summary, then the run in the history and the audit log", async ({ page }) => {
  test.setTimeout(120_000);
  const hydration = watchHydration(page);
  await page.goto("/operations");
  await expect(page.getByRole("heading", { level: 1, name: "Operations" })).toBeVisible();
  const runs = page.getByRole("table", { name: "Operation runs, newest first" });
  await expect(runs).toBeVisible();

  const button = page.getByRole("button", { name: "Run reconciliation now" });
  // Recent is the default; a full scan of the whole history is the operator's explicit choice.
  await expect(page.getByRole("radio", { name: /^Recent/ })).toBeChecked();
  await page.getByRole("radio", { name: /^Full/ }).check();
  await button.click();
  const progress = page.getByText("Reconciliation", { exact: true }).locator("xpath=ancestor::div[@aria-live='polite']");
  await expect(progress).toBeVisible();
  // While it runs the button stays disabled; the counts show as they come.
  await expect(progress.getByText(/^(running|succeeded|failed)$/)).toBeVisible();
  await expect(progress.getByText("succeeded", { exact: true })).toBeVisible({ timeout: 90_000 });
  // The result in words: what was checked and what was missing.
  await expect(progress.getByTestId("run-result")).toContainText(/Checked (no jobs|\d+ jobs?) on the platform: .*(none missing|queued now)/);
  await expect(progress.getByTestId("run-result")).toContainText("A full scan");
  await expect(button).toBeEnabled();

  await expect(runs.locator("tbody tr").filter({ hasText: "Reconciliation" }).filter({ hasText: "succeeded" }).first()).toBeVisible({ timeout: 20_000 });
  const audit = page.getByRole("table", { name: "Operator actions, newest first" });
  await expect(audit.getByText(/reconcile/).first()).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: "test-results/screenshots/operations.png", fullPage: true });

  await page.getByRole("region", { name: "Runs" }).getByLabel("Kind").selectOption("reconcile");
  await expect(runs.locator("tbody tr").first()).toContainText("Reconciliation");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  expect(hydration(), "the server render hydrated without a mismatch").toEqual([]);
});
