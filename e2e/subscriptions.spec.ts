import { expect, test } from "./fixtures";
import type { Page } from "@playwright/test";
import { z } from "zod";
import { seriousFindings } from "./axe";
import { watchHydration } from "./hydration";
import { unwrap } from "../lib/api-client";
import { tallyApi } from "./api";
import { CALM, expectNoSidewaysScroll, setKnobs, submitJob, waitForOutcome } from "./dashboard-helpers";

// Webhooks & secrets: the subscriptions with masked secrets, the 401 chart, a rotation whose new
// secret is shown once, and a secret rotated elsewhere whose 401 spike is replayed back to stored.

const listSchema = z.object({ items: z.array(z.object({ eventType: z.string(), platformId: z.string().nullish() })) });
const card = (page: Page, eventType: string) => page.getByRole("article", { name: `Subscription ${eventType}` });

async function openWithSubscriptions(page: Page) {
  await page.goto("/subscriptions");
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks & secrets" })).toBeVisible();
  // Demo mode registers the three webhooks at start; register them here if it has not yet.
  const register = page.getByRole("button", { name: "Register webhooks" });
  if (await register.isVisible()) await register.click();
  await expect(card(page, "extract_completed")).toBeVisible({ timeout: 30_000 });
}

test("subscriptions render with masked secrets and the 401 chart", async ({ page }) => {
  const hydration = watchHydration(page);
  await openWithSubscriptions(page);
  for (const t of ["extract_completed", "batch_completed", "crawl_completed"]) {
    await expect(card(page, t).getByTestId("secret-mask")).toHaveText(/^••••.{0,4}$/);
  }
  await expect(
    page
      .getByRole("region", { name: "401s per minute, last hour" })
      .getByRole("figure", { name: /401 answers per minute/ }),
  ).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/subscriptions.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  expect(hydration(), "the server render hydrated without a mismatch").toEqual([]);
});

test("rotate a secret: confirm, the new secret shown once (masked, show, copy), gone after a reload", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await openWithSubscriptions(page);
  const extract = card(page, "extract_completed");
  await extract.getByRole("button", { name: "Rotate secret" }).click();
  const dialog = page.getByRole("dialog", { name: "Rotate the secret of extract_completed?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Rotate secret" }).click();
  await expect(dialog).toBeHidden();

  const shown = extract.getByRole("region", { name: /New secret: shown only this once/ });
  await expect(shown).toBeVisible({ timeout: 20_000 });
  const value = shown.getByTestId("one-time-secret");
  await expect(value).toContainText("••••");
  await shown.getByRole("button", { name: "Show" }).click();
  await expect(shown.getByRole("button", { name: "Hide" })).toHaveAttribute("aria-pressed", "true");
  const secret = (await value.textContent()) ?? "";
  expect(secret).not.toContain("•");
  expect(secret.length).toBeGreaterThan(8);
  await shown.getByRole("button", { name: "Copy" }).click();
  await expect(shown.getByText(/Copied to the clipboard|refused the clipboard/)).toBeVisible();
  // The card now shows the new secret's last four, and the rotation's run reports its end.
  await expect(extract.getByTestId("secret-mask")).toHaveText(`••••${secret.slice(-4)}`, { timeout: 20_000 });
  await expect(extract.getByText(/^(succeeded|failed)$/)).toBeVisible({ timeout: 90_000 });
  await page.screenshot({ path: "test-results/screenshots/subscriptions-rotated.png", fullPage: true });

  await page.reload();
  await expect(card(page, "extract_completed")).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  await expect(page.getByTestId("one-time-secret")).toHaveCount(0);
  const html = await (await page.request.get("/subscriptions")).text();
  expect(html).not.toContain(secret);
});

test("a secret rotated elsewhere: 401 spike on the chart and a banner, then set it here and the replay recovers the jobs", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const previous = await setKnobs(page, { ...CALM, failureRate: 0, webhookDelayRate: 0 });
  try {
    await page.goto("/settings");
    const platformUrl = (await page.getByTestId("api-base-url").textContent()) ?? "";
    expect(platformUrl).toMatch(/^http/);
    const subs = listSchema.parse(await unwrap((await tallyApi(page)).GET("/api/subscriptions")));
    const extract = subs.items.find((s) => s.eventType === "extract_completed");
    expect(extract?.platformId, "extract_completed has a platform webhook id").toBeTruthy();

    // The platform rotates without telling Tally: from now on its deliveries fail with 401.
    const rotated = await page.request.post(`${platformUrl}/v1/webhooks/${extract?.platformId}/rotate-secret`, {
      headers: { "x-api-key": "e2e" },
    });
    expect(rotated.ok()).toBe(true);
    const { secret } = z.object({ secret: z.string().min(9) }).parse(await rotated.json());
    const jobs = [];
    for (let i = 0; i < 2; i++)
      jobs.push(await submitJob(page, { kind: "extract", url: `https://example.com/e2e-spike-${Date.now()}-${i}` }));

    await openWithSubscriptions(page);
    const banner = page.getByRole("alert").filter({ hasText: "401 spike on the extract_completed subscription" });
    await expect(banner).toBeVisible({ timeout: 90_000 });
    await expect(
      page.getByRole("region", { name: "401s per minute, last hour" }).getByText(/extract_completed: \d+/),
    ).toBeVisible();
    await page.screenshot({ path: "test-results/screenshots/subscriptions-spike.png", fullPage: true });
    // The chart with bars, markers and links to each minute's deliveries passes axe (issue 49: nested-interactive).
    expect(await seriousFindings(page)).toEqual([]);

    const form = card(page, "extract_completed");
    await form.getByText("Set a secret rotated elsewhere").click();
    const field = form.getByLabel("New secret for extract_completed");
    await expect(field).toHaveValue("");
    await expect(field).toHaveAttribute("type", "password");
    await field.fill(secret);
    await form.getByRole("button", { name: "Save and replay 401s" }).click();
    await expect(field).toHaveValue("");
    await expect(form.getByText("New secret and replay")).toBeVisible();
    await expect(form.getByText(/^(succeeded|failed)$/)).toBeVisible({ timeout: 90_000 });
    await expect(form.getByText("succeeded", { exact: true })).toBeVisible();
    for (const jobId of jobs) await waitForOutcome(page, jobId, "stored", 90_000);
    // the fix ends the alarm, and the chart marks when the secret was set
    await expect(banner).toBeHidden({ timeout: 20_000 });
    await expect(
      page.getByRole("region", { name: "401s per minute, last hour" }).getByText(/extract_completed secret set at/),
    ).toBeVisible();
    // the rotation marker is on the chart, and the card shows the secret's last four
    await expect(form.getByTestId("secret-mask")).toHaveText(`••••${secret.slice(-4)}`);
    await page.screenshot({ path: "test-results/screenshots/subscriptions-recovered.png", fullPage: true });
    expect(await page.content()).not.toContain(secret);
  } finally {
    await setKnobs(page, previous);
  }
});
