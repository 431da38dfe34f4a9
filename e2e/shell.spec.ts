import { expect, test } from "@playwright/test";

const SECTIONS = [
  ["/", "Overview"],
  ["/jobs", "Jobs"],
  ["/deliveries", "Deliveries"],
  ["/subscriptions", "Webhooks & secrets"],
  ["/dead-letters", "Dead letters"],
  ["/outbound", "Outbound"],
  ["/operations", "Operations"],
  ["/budget", "API budget"],
  ["/alerts", "Alerts"],
  ["/settings", "Settings"],
] as const;

test("every section renders under the login, reachable from the navigation", async ({ page }) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Sections" });
  for (const [href, label] of SECTIONS) {
    await nav.getByRole("link", { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${href === "/" ? "/$" : href}$`));
    await expect(page.getByRole("heading", { level: 1, name: label })).toBeVisible();
    await page.screenshot({ path: `test-results/screenshots/shell-${label.replace(/\W+/g, "-").toLowerCase()}.png`, fullPage: true });
  }
});

test("sign out ends the session", async ({ browser }) => {
  const context = await browser.newContext({ storageState: "e2e/.auth/operator.json" });
  const page = await context.newPage();
  // a separate sign-in so the shared session stays valid for other specs
  await context.clearCookies();
  await page.goto("/login");
  await page.getByLabel("Password").fill("e2e operator password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await page.getByTestId("user-menu").locator("summary").click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings/);
  await context.close();
});
