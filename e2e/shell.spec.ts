import { E2E_PASSWORD, expect, test } from "./fixtures";

const SECTIONS = [
  ["/", "Overview"],
  ["/runs", "Runs"],
  ["/collections", "Collections"],
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
    await expect(nav.getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
    await page.screenshot({
      path: `test-results/screenshots/shell-${label.replace(/\W+/g, "-").toLowerCase()}.png`,
      fullPage: true,
    });
  }
});

test("sign in: the page asked for sends to the form, a wrong password is refused, the right one opens the page", async ({
  browser,
}) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/jobs");
  await expect(page).toHaveURL(/\/login\?next=%2Fjobs/);
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong password" })).toBeVisible();
  await page.getByLabel("Password").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/jobs$/);
  await expect(page.getByRole("heading", { level: 1, name: "Jobs" })).toBeVisible();
  await context.close();
});

test("sign out ends the session", async ({ browser }) => {
  // a session of its own, so the worker's shared session stays valid for the other specs
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Password").fill(E2E_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await page.getByTestId("user-menu").locator("summary").click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings/);
  await context.close();
});
