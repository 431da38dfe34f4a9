import { expect, test, operatorPage } from "./fixtures";
import { CALM, setKnobs, submitJob, waitForOutcome } from "./dashboard-helpers";

// A job made to fail for good becomes a dead letter; the alert schedule (every 2 s here) fires
// dead_letters, the Alerts page shows it with the webhook's delivery result, and the webhook
// channel's "Send test alert" button reaches the sink that scripts/e2e-server.mjs runs.

let previous: Record<string, number | number[]> = {};
let jobId = "";

test.beforeAll(async ({ browser, tally }) => {
  test.setTimeout(150_000);
  const page = await operatorPage(browser, tally);
  previous = await setKnobs(page, { ...CALM, failureRate: 1, retryableShare: 0 });
  try {
    jobId = await submitJob(page, { kind: "extract", url: `https://example.com/e2e-alerts/${Date.now()}` });
    await waitForOutcome(page, jobId, "dead_lettered");
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

test("the Alerts page shows dead_letters firing, delivered to the webhook, and its test button sends", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto("/alerts");
  await expect(page.getByRole("link", { name: "Alerts" })).toHaveAttribute("aria-current", "page");
  const rule = page.getByTestId("rule-dead_letters");
  await expect(rule.getByText("firing", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(rule).toContainText("TALLY_ALERT_DEAD_LETTERS");

  const firing = page
    .getByTestId("alert-event")
    .filter({ hasText: "dead_letters" })
    .filter({ hasText: "firing" })
    .first();
  await expect(firing).toBeVisible();
  await expect(firing.getByText("webhook")).toBeVisible();
  await expect(firing.getByText("sent")).toBeVisible({ timeout: 20_000 });

  const channel = page.getByTestId("channel-webhook");
  await expect(channel).toContainText("signed");
  const target = (await channel.locator(".font-mono").textContent()) ?? "";
  expect(target).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/alerts$/);
  const before = ((await (await page.request.get(target)).json()) as unknown[]).length;

  await channel.getByRole("button", { name: "Send test alert" }).click();
  await expect(channel.getByRole("status")).toHaveText("Test alert sent");
  const received = (await (await page.request.get(target)).json()) as Array<{
    headers: Record<string, string>;
    body: string;
  }>;
  expect(received.length).toBe(before + 1);
  const last = received[received.length - 1];
  expect(JSON.parse(last.body)).toMatchObject({ rule: "test", state: "firing" });
  expect(last.headers["webhook-signature"]).toMatch(/^v1,/);
  await expect(page.getByTestId("alert-event").first()).toContainText("test");

  // Slack and e-mail are not configured here: their buttons cannot be pressed.
  await expect(page.getByTestId("channel-slack").getByRole("button", { name: "Send test alert" })).toBeDisabled();
});

test("an operator acknowledges the firing rule and silences it for an hour with a reason, then lifts the silence", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto("/alerts");
  const rule = page.getByTestId("rule-dead_letters");
  await expect(rule.getByText("firing", { exact: true })).toBeVisible({ timeout: 30_000 });

  await rule.getByRole("button", { name: "Acknowledge dead_letters" }).click();
  await expect(rule).toContainText(/acknowledged by operator@localhost|acknowledged by .+@/);
  await expect(rule).toContainText("no repeats until it resolves");
  await expect(rule.getByRole("button", { name: "Acknowledge dead_letters" })).toHaveCount(0);

  await rule.getByRole("button", { name: "Silence dead_letters…" }).click();
  await rule.getByLabel("For").selectOption({ label: "1 hour" });
  await rule.getByLabel("Why (optional)").fill("planned maintenance");
  await rule.getByRole("button", { name: "Silence", exact: true }).click();
  await expect(rule).toContainText("silenced until");
  await expect(rule).toContainText("“planned maintenance”");
  // The time is the reader's own, not an ISO string.
  await expect(rule).not.toContainText(/\d{4}-\d\d-\d\dT/);
  await page.reload();
  await expect(page.getByTestId("rule-dead_letters")).toContainText("silenced until");

  await page.getByTestId("rule-dead_letters").getByRole("button", { name: "Lift the silence on dead_letters" }).click();
  await expect(page.getByTestId("rule-dead_letters")).not.toContainText("silenced until");
  await expect(
    page.getByTestId("rule-dead_letters").getByRole("button", { name: "Silence dead_letters…" }),
  ).toBeVisible();
});
