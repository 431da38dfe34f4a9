import { createHmac, timingSafeEqual } from "node:crypto";
import { expect, test, operatorPage } from "./fixtures";
import type { Page } from "@playwright/test";
import { startSink, type Sink, type SinkRequest } from "../lib/outbound/test-sink";
import { CALM, expectNoSidewaysScroll, setKnobs, submitJob, waitForOutcome } from "./dashboard-helpers";

// A destination served by a sink that answers 500 until told otherwise: a job's job.stored event
// shows on the Outbound page as failing with its 500, then (sink fixed) one click replays it and it
// arrives, signed with the secret the page showed once.

let sink: Sink;
let healthy = false;
let previous: Record<string, number | number[]> = {};

test.beforeAll(async ({ browser, tally }) => {
  sink = await startSink(() => (healthy ? 200 : 500));
  const page = await operatorPage(browser, tally);
  previous = await setKnobs(page, CALM);
  await page.close();
});
test.afterAll(async ({ browser, tally }) => {
  await sink?.close();
  const page = await operatorPage(browser, tally);
  await setKnobs(page, previous);
  await page.close();
});

/** Standard Webhooks verification, as a receiver would write it. */
function verifies(r: SinkRequest, secret: string): boolean {
  const id = String(r.headers["webhook-id"]);
  const ts = String(r.headers["webhook-timestamp"]);
  const expected = createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
    .update(`${id}.${ts}.${r.body}`)
    .digest();
  return String(r.headers["webhook-signature"])
    .split(" ")
    .some((s) => {
      const got = Buffer.from(s.replace(/^v1,/, ""), "base64");
      return got.length === expected.length && timingSafeEqual(got, expected);
    });
}

const row = (page: Page, jobId: string) => page.locator(`[data-testid="outbound-row"][data-job="${jobId}"]`);

test("the Outbound page shows a failed delivery and replays it", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/outbound");
  await expect(page.getByRole("heading", { level: 1, name: "Outbound" })).toBeVisible();

  // Add the destination from the page; its secret is shown once.
  const form = page.getByRole("form", { name: "Add a destination" });
  await form.getByLabel("Endpoint URL").fill(sink.url);
  await form.getByRole("button", { name: "Add destination" }).click();
  const secretBox = page.getByTestId("one-time-secret");
  await expect(secretBox).toBeVisible();
  await page.getByRole("button", { name: "Show" }).click();
  const secret = (await secretBox.textContent()) ?? "";
  expect(secret).toMatch(/^whsec_/);
  await page.getByRole("button", { name: "Done, forget it" }).click();
  await expect(secretBox).toHaveCount(0);
  const card = page.getByTestId("destination-card").filter({ hasText: sink.url });
  await expect(card).toContainText(`••••${secret.slice(-4)}`);

  const jobId = await submitJob(page, { kind: "extract", url: `https://example.com/e2e-outbound/${Date.now()}` });
  await waitForOutcome(page, jobId, "stored");

  await page.getByRole("combobox", { name: /^Destination/ }).selectOption({ label: sink.url });
  await expect(page).toHaveURL(/destinationId=/);
  await expect(row(page, jobId)).toHaveAttribute("data-status", "retrying", { timeout: 30_000 });
  await expect(row(page, jobId)).toContainText("500");
  await expect(card).toContainText("HTTP 500");

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `test-results/screenshots/outbound-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  healthy = true;
  await row(page, jobId)
    .getByRole("button", { name: /^Replay/ })
    .click();
  await expect(row(page, jobId)).toHaveAttribute("data-status", "delivered", { timeout: 30_000 });
  await expect(row(page, jobId)).toContainText("replayed 1×");
  await row(page, jobId).locator("summary").click();
  await expect(row(page, jobId).getByRole("listitem")).toHaveCount(2);
  await expect(row(page, jobId).getByRole("listitem").first()).toContainText("500");
  await page.screenshot({ path: "test-results/screenshots/outbound-replayed.png", fullPage: true });

  const mine = sink.requests.filter((r) => JSON.parse(r.body).data?.jobId === jobId);
  expect(mine.length).toBeGreaterThanOrEqual(2);
  expect(new Set(mine.map((r) => r.headers["webhook-id"])).size).toBe(1);
  for (const r of mine) expect(verifies(r, secret)).toBe(true);
  expect(JSON.parse(mine[0].body)).toMatchObject({
    type: "job.stored",
    data: { jobId, outcome: "stored", kind: "extract" },
  });
});
