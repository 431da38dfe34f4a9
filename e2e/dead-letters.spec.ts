import { expect, test, operatorPage } from "./fixtures";
import type { Page } from "@playwright/test";
import { CALM, outcomeOf, setKnobs, submitJob, waitForOutcome } from "./dashboard-helpers";

// Two jobs are made to fail for good (every job fails, none retryable), so each lands in Dead
// letters; then the platform is made healthy again. One is retried from the UI and its resubmission
// ends stored; the other is discarded with a reason and stays discarded.

let previous: Record<string, number | number[]> = {};
let toRetry = "";
let toDiscard = "";

test.beforeAll(async ({ browser, tally }) => {
  test.setTimeout(150_000);
  const page = await operatorPage(browser, tally);
  previous = await setKnobs(page, { ...CALM, failureRate: 1, retryableShare: 0 });
  try {
    toRetry = await submitJob(page, { kind: "extract", url: `https://example.com/e2e-dead/retry-${Date.now()}` });
    toDiscard = await submitJob(page, { kind: "extract", url: `https://example.com/e2e-dead/discard-${Date.now()}` });
    await waitForOutcome(page, toRetry, "dead_lettered");
    await waitForOutcome(page, toDiscard, "dead_lettered");
  } finally {
    await setKnobs(page, { failureRate: 0 });
    await page.close();
  }
});
test.afterAll(async ({ browser, tally }) => {
  const page = await operatorPage(browser, tally);
  await setKnobs(page, previous);
  await page.close();
});

const row = (page: Page, jobId: string) =>
  page.getByRole("table", { name: "Dead letters" }).locator(`tbody tr[data-job="${jobId}"]`);

test("a dead letter retried from the UI ends stored, linked both ways", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`/dead-letters?jobId=${toRetry}`);
  await expect(page.getByTestId("dead-letter-total")).toContainText("1 open dead letter");
  await expect(page.getByRole("button", { name: "Retry all 1 matching…" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/dead-letters.png", fullPage: true });

  // Keyboard only: tick the row, then the button, then confirm in the dialog.
  await row(page, toRetry).getByRole("checkbox").focus();
  await page.keyboard.press("Space");
  await expect(page.getByText("1 selected")).toBeVisible();
  await page.getByRole("button", { name: "Retry selected" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Retry 1 dead letter?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Retry 1" }).click();
  await expect(page.getByTestId("action-result")).toContainText("Retried 1 of 1 (1 resubmitted); 0 skipped");

  await expect.poll(() => outcomeOf(page, toRetry)).toBe("resubmitted");
  await page.goto(`/jobs/${toRetry}`);
  const forward = page.getByTestId("resubmitted-as");
  await expect(forward).toBeVisible();
  await forward.click();
  await expect(page.getByTestId("resubmitted-from")).toContainText(toRetry);
  const newId = (await page.getByTestId("job-id").textContent()) ?? "";
  await waitForOutcome(page, newId, "stored");
  await page.reload();
  await expect(page.getByTestId("job-outcome")).toContainText("stored");

  await page.goto(`/dead-letters?state=retried&jobId=${toRetry}`);
  await expect(row(page, toRetry).getByTestId("resolution")).toContainText(`resubmitted as ${newId}`);
});

test("a discarded dead letter stays discarded with its reason", async ({ page }) => {
  await page.goto(`/dead-letters?jobId=${toDiscard}`);
  await row(page, toDiscard).getByRole("checkbox").check();
  await page.getByRole("button", { name: "Discard selected…" }).click();
  const dialog = page.getByRole("dialog", { name: "Discard 1 dead letter?" });
  const confirm = dialog.getByRole("button", { name: "Discard 1" });
  await expect(confirm).toBeDisabled(); // a reason is required
  await dialog.getByLabel(/Reason/).fill("e2e: the target page is gone for good");
  await confirm.click();
  await expect(page.getByTestId("action-result")).toContainText("Discarded 1 of 1");

  await page.goto(`/dead-letters?state=discarded&jobId=${toDiscard}`);
  await expect(row(page, toDiscard)).toContainText("discarded");
  await expect(row(page, toDiscard).getByTestId("resolution")).toHaveText("e2e: the target page is gone for good");
  await page.goto(`/dead-letters?jobId=${toDiscard}`);
  await expect(page.getByTestId("dead-letter-total")).toContainText("0 open dead letters");
  expect(await outcomeOf(page, toDiscard)).toBe("dead_lettered");
});
