import { expect, test } from "./fixtures";
import { watchHydration } from "./hydration";
import { expectNoSidewaysScroll } from "./dashboard-helpers";

// Settings: the mode, the effective configuration with secrets masked, and the demo simulator's knobs
// saved (and audited) from the form.

test("settings: mode, masked configuration, and the simulator knobs save", async ({ page }) => {
  const hydration = watchHydration(page);
  await page.goto("/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  const mode = page.getByRole("region", { name: "Mode" });
  await expect(mode.getByText("demo", { exact: true })).toBeVisible();
  await expect(mode.getByText("webhooks", { exact: true })).toBeVisible();
  const config = page.getByRole("table", { name: /Effective configuration/ });
  await expect(config.getByRole("row", { name: /TALLY_OPERATOR_PASSWORD/ })).toContainText("••••");
  expect(await page.content()).not.toContain("e2e operator password");

  const knobs = page.getByRole("form", { name: "Simulator fault knobs" });
  const drop = knobs.getByRole("spinbutton", { name: "Webhooks never sent" });
  const before = await drop.inputValue();
  const next = before === "0.07" ? "0.06" : "0.07";
  await drop.fill(next);
  await expect(knobs.getByRole("slider", { name: "Webhooks never sent" })).toHaveValue(next);
  await knobs.getByRole("button", { name: "Save knobs" }).click();
  await expect(knobs.getByText(/^Saved\./)).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/settings.png", fullPage: true });

  // Saved on the simulator: a reload reads it back; a bad value is refused in words.
  await page.reload();
  await expect(
    page.getByRole("form", { name: "Simulator fault knobs" }).getByRole("spinbutton", { name: "Webhooks never sent" }),
  ).toHaveValue(next);
  const again = page.getByRole("form", { name: "Simulator fault knobs" });
  await again.getByRole("spinbutton", { name: "Webhooks never sent" }).fill("1.5");
  await again.getByRole("button", { name: "Save knobs" }).click();
  await expect(again.getByRole("alert")).toContainText("Webhooks never sent: must be at most 1");
  await again.getByRole("spinbutton", { name: "Webhooks never sent" }).fill(before);
  await again.getByRole("button", { name: "Save knobs" }).click();
  await expect(again.getByText(/^Saved\./)).toBeVisible();

  await page.goto("/operations");
  await expect(
    page.getByRole("table", { name: "Operator actions, newest first" }).getByText("simulator.configure").first(),
  ).toBeVisible();

  await page.goto("/settings");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  expect(hydration(), "the server render hydrated without a mismatch").toEqual([]);
});
