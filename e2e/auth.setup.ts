import { expect, test as setup } from "@playwright/test";

// Logs in once through the real form and saves the session for every other spec.
setup("operator signs in", async ({ page }) => {
  await page.goto("/jobs");
  await expect(page).toHaveURL(/\/login\?next=%2Fjobs/);
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong password" })).toBeVisible();
  await page.getByLabel("Password").fill("e2e operator password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/jobs$/);
  await page.context().storageState({ path: "e2e/.auth/operator.json" });
});
