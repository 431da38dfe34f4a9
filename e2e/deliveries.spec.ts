import { expect, test } from "./fixtures";
import { watchHydration } from "./hydration";
import { expectNoSidewaysScroll } from "./dashboard-helpers";

// Deliveries: both logs, filters in the URL, keyset pages, and Replay failures with its progress and result.

const inbound = (page: import("@playwright/test").Page) => page.getByRole("table", { name: /Inbound deliveries/ });
const platform = (page: import("@playwright/test").Page) => page.getByRole("table", { name: /Platform delivery log/ });

test("deliveries: both logs render, filter by status and page with keysets", async ({ page }) => {
  test.setTimeout(120_000);
  const hydration = watchHydration(page);
  await page.goto("/deliveries");
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
  await expect(inbound(page)).toBeVisible();
  await expect(platform(page)).toBeVisible();
  // The demo trickle reaches the receiver within a minute; the newest page refreshes by itself.
  await expect(inbound(page).getByRole("link").first()).toBeVisible({ timeout: 90_000 });
  await page.screenshot({ path: "test-results/screenshots/deliveries.png", fullPage: true });

  const filters = page.getByRole("form", { name: "Delivery filters" });
  await filters.getByLabel("Status").selectOption("2xx");
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/status=2xx/);
  await expect(inbound(page).locator("tbody tr").first()).toBeVisible();
  for (const cell of await inbound(page).locator("tbody tr td:nth-child(4)").allTextContents())
    expect(cell).toMatch(/^2\d\d$/);

  // the receiver always answers, so "no answer" matches nothing in the inbound log
  await filters.getByLabel("Status").selectOption("none");
  await filters.getByLabel("Time").selectOption("15m");
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/status=none/);
  await expect(page).toHaveURL(/window=15m/);
  await expect(inbound(page).getByText("No inbound deliveries match these filters.")).toBeVisible();

  // A bad value in the address is reported, not fatal.
  await page.goto("/deliveries?status=abc");
  await expect(page.getByText(/Some filters in the address were ignored/)).toBeVisible();

  await page.getByRole("form", { name: "Delivery filters" }).getByRole("button", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/deliveries\??$/);
  const pager = page.getByRole("navigation", { name: "Inbound log pages" });
  const older = pager.getByRole("button", { name: "Older →" });
  if (await older.isEnabled()) {
    const firstRow = await inbound(page).locator("tbody tr").first().textContent();
    await older.click();
    await expect(pager.getByText("Page 2")).toBeVisible();
    await expect.poll(() => inbound(page).locator("tbody tr").first().textContent()).not.toBe(firstRow);
    await pager.getByRole("button", { name: "← Newer" }).click();
    await expect(pager.getByText("Page 1")).toBeVisible();
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: "test-results/screenshots/deliveries-phone.png", fullPage: true });
  expect(hydration(), "the server render hydrated without a mismatch").toEqual([]);
});

test("deliveries: Replay failures shows the run's progress and its result, and mirrors the platform log", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto("/deliveries");
  const button = page.getByRole("button", { name: "Replay failures" });
  await button.click();
  const progress = page.getByText("Replay", { exact: true }).locator("xpath=ancestor::div[@aria-live='polite']");
  await expect(progress).toBeVisible();
  await expect(progress.getByText(/^(succeeded|failed)$/)).toBeVisible({ timeout: 90_000 });
  await expect(button).toBeEnabled();
  // the demo platform keeps a delivery log, so a successful replay leaves the mirror filled
  if (await progress.getByText("succeeded", { exact: true }).isVisible()) {
    await expect(progress.getByTestId("run-result")).toContainText(/in the platform's log/);
    await expect(platform(page).getByRole("link").first()).toBeVisible({ timeout: 20_000 });
  } else {
    await expect(progress.getByRole("alert")).toBeVisible();
  }
  await page.screenshot({ path: "test-results/screenshots/deliveries-replay.png", fullPage: true });
});
