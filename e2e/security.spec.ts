import { expect, test } from "./fixtures";
import { E2E_PASSWORD } from "./fixtures";
import { tallyClient } from "./api";

// Issue 27 in the browser: a hostile `next` after sign-in stays on Tally; an admin resets a person's
// password from Settings → Users (their sessions and tokens end); Settings as a viewer shows no secret,
// not even a last 4. Screenshots of Settings (admin and viewer), Users and Outbound at 1440 and 390 px.

const WIDTHS = [
  { name: "desktop", width: 1440, height: 1000 },
  { name: "phone", width: 390, height: 844 },
];

test.describe("sign-in redirect", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  for (const next of ["/%5Cevil.example", "/%09/evil.example"]) {
    test(`signing in with next=${next} stays on Tally`, async ({ page, baseURL }) => {
      await page.goto(`/login?next=${next}`);
      await page.getByLabel("Password").fill(E2E_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
    });
  }
});

test("an admin resets a password on Settings → Users; a viewer's Settings shows no secret", async ({
  page,
  browser,
  baseURL,
}) => {
  const email = `viewer-${Date.now()}@example.com`;
  const made = await tallyClient(page.request, baseURL!).POST("/api/users", {
    body: { email, name: "Vic Viewer", role: "viewer", password: "first password 123" },
  });
  expect(made.response.status).toBe(201);

  // The viewer signs in elsewhere and sees Settings without any secret value.
  const viewer = await browser.newContext({ baseURL });
  const asViewer = tallyClient(viewer.request, baseURL!);
  const signedIn = await asViewer.POST("/api/auth/login", { body: { email, password: "first password 123" } });
  expect(signedIn.response.status).toBe(200);
  const vpage = await viewer.newPage();
  for (const w of WIDTHS) {
    await vpage.setViewportSize({ width: w.width, height: w.height });
    await vpage.goto("/settings");
    const config = vpage.getByRole("table", { name: /Effective configuration/ });
    await expect(config.getByRole("row", { name: /TALLY_OPERATOR_PASSWORD/ })).toContainText("(hidden)");
    await vpage.screenshot({ path: `test-results/screenshots/security-settings-viewer-${w.name}.png`, fullPage: true });
  }
  expect(await vpage.content()).not.toMatch(/••••[^ <"]{4}/);

  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await page.goto("/settings");
    await expect(
      page
        .getByRole("table", { name: /Effective configuration/ })
        .getByRole("row", { name: /TALLY_OPERATOR_PASSWORD/ }),
    ).toContainText(/••••.{4}/);
    await page.screenshot({ path: `test-results/screenshots/security-settings-admin-${w.name}.png`, fullPage: true });
    await page.goto("/outbound");
    await expect(page.getByRole("heading", { level: 1, name: "Outbound" })).toBeVisible();
    await page.screenshot({ path: `test-results/screenshots/security-outbound-${w.name}.png`, fullPage: true });
  }

  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto("/settings/users");
  const row = page.getByRole("row", { name: new RegExp(email.replace(/[.]/g, "\\.")) });
  await row.getByRole("button", { name: "Reset password" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/New password/).fill("a brand new password");
  await page.screenshot({ path: "test-results/screenshots/security-users-reset-desktop.png", fullPage: true });
  await dialog.getByRole("button", { name: "Set password" }).click();
  await expect(
    page.getByText(`New password set for ${email}: 1 session(s) ended, 0 API token(s) revoked.`),
  ).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/security-users-done-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/screenshots/security-users-done-phone.png", fullPage: true });

  // The viewer's session ended with the reset.
  expect((await asViewer.GET("/api/auth/me")).response.status).toBe(401);
  await viewer.close();
});
