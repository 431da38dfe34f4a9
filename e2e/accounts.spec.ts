import { expect, test } from "./fixtures";
import type { Browser, Page } from "@playwright/test";
import { tallyApi } from "./api";

// Accounts in the browser: an admin adds a viewer; the viewer sees no action buttons and the server
// refuses a direct POST with 403; "Sign out everywhere" ends the session of another browser.

const PASSWORD = "viewer password 1234";
const viewerEmail = `viewer-${Date.now().toString(36)}@example.com`;

async function signInAs(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  return page;
}

test.describe.configure({ mode: "serial" });

test("an admin adds a viewer from Settings → Users", async ({ page }) => {
  await page.goto("/settings/users");
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
  const form = page.getByRole("form", { name: "Add a user" });
  await form.getByLabel("E-mail").fill(viewerEmail);
  await form.getByLabel("Name").fill("Vera Viewer");
  await form.getByLabel("Role").selectOption("viewer");
  await form.getByLabel("First password").fill(PASSWORD);
  await form.getByRole("button", { name: "Add user" }).click();
  await expect(form.getByText(`${viewerEmail} can sign in now, as viewer.`)).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(viewerEmail) });
  await expect(row.getByRole("combobox", { name: `Role of ${viewerEmail}` })).toHaveValue("viewer");

  // On a phone the table fits its card: state and date go under the name, the actions stay in reach.
  await page.setViewportSize({ width: 390, height: 844 });
  const table = page.getByRole("table", { name: "Users" });
  await row.scrollIntoViewIfNeeded();
  await expect(row.getByRole("button", { name: "Disable" })).toBeInViewport();
  const overflow = await table.evaluate((t) => t.parentElement!.scrollWidth - t.parentElement!.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(row.getByText("active").filter({ visible: true })).toHaveCount(1);
});

test("the viewer sees its name and role, no action buttons, and a direct POST answers 403", async ({ browser }) => {
  const page = await signInAs(browser, viewerEmail);
  const menu = page.getByTestId("user-menu");
  await expect(menu).toContainText("Vera Viewer");
  await expect(menu).toContainText("viewer");

  await page.goto("/operations");
  await expect(page.getByRole("heading", { level: 1, name: "Operations" })).toBeVisible();
  await expect(page.getByRole("table", { name: /Operator actions/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Run reconciliation now" })).toHaveCount(0);
  await page.goto("/subscriptions");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Rotate secret" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Register webhooks" })).toHaveCount(0);
  await page.goto("/settings");
  await expect(page.getByText("Only an admin changes the simulator's faults.")).toBeVisible();
  await expect(page.getByRole("form", { name: "Simulator fault knobs" })).toHaveCount(0);

  // The server checks anyway: the page's own session, from its own origin (so not the CSRF check).
  const res = await (await tallyApi(page)).POST("/api/operations/reconcile", { body: {} });
  expect(res.response.status).toBe(403);
  expect(res.error).toEqual({
    error: "forbidden",
    message: `POST /api/operations/reconcile needs the operator role; ${viewerEmail} is a viewer`,
  });
  await page.context().close();
});

test("sign out everywhere ends the session of another browser", async ({ browser }) => {
  const laptop = await signInAs(browser, viewerEmail);
  const phone = await signInAs(browser, viewerEmail);
  await laptop.goto("/settings");
  const sessions = laptop.getByRole("region", { name: "Sessions" });
  await expect(sessions.getByText("this browser")).toBeVisible();
  await expect(sessions.getByRole("button", { name: "End" })).not.toHaveCount(0);
  await sessions.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(laptop).toHaveURL(/\/login/);

  await phone.goto("/jobs");
  await expect(phone).toHaveURL(/\/login\?next=%2Fjobs/);
  const res = await (await tallyApi(phone)).GET("/api/auth/me");
  expect(res.response.status).toBe(401);
  await laptop.context().close();
  await phone.context().close();
});
