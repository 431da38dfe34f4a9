import { expect, test } from "./fixtures";
import { watchHydration } from "./hydration";
import { CALM, expectNoSidewaysScroll, setKnobs } from "./dashboard-helpers";
import { unwrap } from "../lib/api-client";
import { tallyApi } from "./api";

// Operations: Run reconciliation now with live progress and its summary, the run history of every
// kind, the operator action landing in the audit log, and the run page of each kind of run.

test("run reconciliation now: progress, then a summary, then the run in the history and the audit log", async ({
  page,
}) => {
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
  const progress = page
    .getByText("Reconciliation", { exact: true })
    .locator("xpath=ancestor::div[@aria-live='polite']");
  await expect(progress).toBeVisible();
  // While it runs the button stays disabled; the counts show as they come.
  await expect(progress.getByText(/^(running|succeeded|failed)$/)).toBeVisible();
  await expect(progress.getByText("succeeded", { exact: true })).toBeVisible({ timeout: 90_000 });
  // The result in words: what was checked and what was missing.
  await expect(progress.getByTestId("run-result")).toContainText(
    /Checked (no jobs|\d+ jobs?) on the platform: .*(none missing|queued now)/,
  );
  await expect(progress.getByTestId("run-result")).toContainText("A full scan");
  await expect(button).toBeEnabled();

  await expect(
    runs.locator("tbody tr").filter({ hasText: "Reconciliation" }).filter({ hasText: "succeeded" }).first(),
  ).toBeVisible({ timeout: 20_000 });
  const audit = page.getByRole("table", { name: "Operator actions, newest first" });
  await expect(audit.getByText(/reconcile/).first()).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: "test-results/screenshots/operations.png", fullPage: true });

  await page.getByRole("region", { name: "Runs" }).getByLabel("Kind").selectOption("reconcile");
  await expect(runs.locator("tbody tr").first()).toContainText("Reconciliation");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  expect(hydration(), "the server render hydrated without a mismatch").toEqual([]);
});

test("a run page for each kind of run: what was asked, by whom, the result in words", async ({ page }) => {
  test.setTimeout(150_000);
  // Without the simulator's injected faults, so each run's result is the one described.
  const previous = await setKnobs(page, CALM);
  try {
    await page.goto("/operations");
    // register: run by demo mode at start-up
    await page.getByRole("combobox", { name: "Kind" }).selectOption("register");
    await page.getByTestId("run-link").filter({ hasText: "Webhook registration" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Webhook registration" })).toBeVisible();
    await expect(page.getByTestId("run-started-by")).toHaveText("demo mode at start-up");
    await expect(page.getByTestId("run-result")).toContainText(/Registered 3 subscriptions|No new subscription/);

    const tally = await tallyApi(page);
    const reconcile = await unwrap(tally.POST("/api/operations/reconcile", { body: {} }));
    await page.goto(`/operations/${reconcile.runId}`);
    await expect(page.getByRole("heading", { level: 1, name: "Reconciliation" })).toBeVisible();
    await expect(page.getByTestId("run-asked")).toContainText("whose outcome is missing here");
    await expect(page.getByText("succeeded", { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("run-result")).toContainText(
      /Checked (no jobs|\d+ jobs?) on the platform: .*(none missing|queued now)\./,
    );

    const replay = await unwrap(tally.POST("/api/operations/replay", { body: {} }));
    await page.goto(`/operations/${replay.runId}`);
    await expect(page.getByRole("heading", { level: 1, name: "Replay of failed deliveries" })).toBeVisible();
    await expect(page.getByText("succeeded", { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId("run-result")).toContainText(
      /Checked (no deliveries|\d+ deliver(y|ies)) in the platform's log/,
    );
    await expect(page.getByRole("table").filter({ hasText: "By subscription" })).toBeVisible();

    const subs = await unwrap(tally.GET("/api/subscriptions"));
    const crawl = subs.items.find((s) => s.eventType === "crawl_completed");
    expect(crawl).toBeTruthy();
    const rotate = await unwrap(
      tally.POST("/api/subscriptions/{id}/rotate", { params: { path: { id: String(crawl?.id) } } }),
    );
    await page.goto(`/operations/${rotate.runId}`);
    await expect(page.getByRole("heading", { level: 1, name: "Secret rotation" })).toBeVisible();
    await expect(page.getByTestId("run-asked")).toContainText("the crawl_completed subscription");
    // While it settles, a countdown to the replay.
    await expect(page.getByTestId("countdown")).toContainText(/Replay starts (in \d+ s|any moment now)/);
    await expect(page.getByText("succeeded", { exact: true })).toBeVisible({ timeout: 90_000 });
    await expect(page.getByTestId("run-result")).toContainText("The new secret");
    // The replay the rotation started says so, and links back.
    await page.getByRole("link", { name: "Open the replay it started →" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Replay of failed deliveries" })).toBeVisible();
    await expect(page.getByTestId("run-started-by")).toContainText("the secret rotation it belongs to");
    await expect(page.getByTestId("run-asked")).toContainText("refused with 401");
  } finally {
    await setKnobs(page, previous);
  }
});
