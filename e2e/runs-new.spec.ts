import { E2E_PASSWORD, expect, test } from "./fixtures";
import { expectNoSidewaysScroll } from "./dashboard-helpers";

// Issue 49 items 1, 2 and 6 on /runs/new: a large list pasted or loaded from a file is kept whole (a
// keystroke cannot replace it), its count and the run's limit are shown before Create, numbers
// formatted, and a list over the limit is refused there; what was typed survives a session that ends
// and the sign-in after it (a draft in the browser, offered back).

const SHOTS = "test-results/screenshots";
const list = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `https://shop.example/${tag}/item-${i}`).join("\n");

test("a pasted list of 50,000 URLs is kept whole: no keystroke replaces it; counted against the limit", async ({
  page,
}) => {
  await page.goto("/runs/new");
  // A paste: the whole text arrives in the box at once, as one input event (Playwright's fill of 2 MB
  // types it in pieces, minutes long).
  await page.getByRole("textbox", { name: /URLs/ }).focus();
  await page.evaluate(
    (text) => {
      const box = document.activeElement as HTMLTextAreaElement;
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set?.call(box, text);
      box.dispatchEvent(new Event("input", { bubbles: true }));
    },
    list(50_000, "paste"),
  );
  const large = page.getByTestId("large-list");
  await expect(large).toBeVisible();
  await expect(large).toContainText("A list of 50,000 lines");
  await expect(large).toContainText("pasted");
  // The box is gone: typing where it was changes nothing.
  await expect(page.getByRole("textbox", { name: /URLs/ })).toHaveCount(0);
  await page.keyboard.type("x");
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview).toContainText("50,000");
  await expect(preview).toContainText("of 100,000 a run may hold");
  await expect(page.getByRole("button", { name: "Create the run with 50,000 URLs" })).toBeEnabled();
  for (const [width, tag] of [
    [1440, "desktop"],
    [1024, "narrow"],
    [390, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/run-new-large-list-${tag}.png`, fullPage: true });
  }
  // Edit as text shows the whole list, then Clear empties it.
  await large.getByRole("button", { name: "Edit as text" }).click();
  await expect(page.getByRole("textbox", { name: /URLs/ })).toHaveValue(/item-49999$/);
  await page.getByRole("textbox", { name: /URLs/ }).fill("");
  await expect(page.getByRole("region", { name: "Preview" })).toHaveCount(0);
});

test("a file over the limit is refused before Create, saying by how much", async ({ page }) => {
  await page.goto("/runs/new");
  await page.getByLabel("Upload a file…").setInputFiles({
    name: "too-many.txt",
    mimeType: "text/plain",
    buffer: Buffer.from(list(100_250, "file")),
  });
  const large = page.getByTestId("large-list");
  await expect(large).toContainText("A list of 100,250 lines");
  await expect(large).toContainText("from too-many.txt");
  await expect(page.getByTestId("over-limit")).toHaveText(
    /100,250 URLs is over the 100,000 a run may hold: remove 250, or split the list/,
  );
  await expect(page.getByRole("button", { name: /Create the run/ })).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/run-new-over-limit.png`, fullPage: true });
});

test("what was typed survives the session's end and the sign-in after it", async ({ browser }) => {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const signIn = async () => {
    await page.getByLabel("Password").fill(E2E_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
  };
  await page.goto("/runs/new");
  await signIn();
  await expect(page.getByRole("heading", { level: 1, name: "New run" })).toBeVisible();
  await page.getByLabel("Name").fill("weekly prices");
  await page.getByRole("textbox", { name: /URLs/ }).fill(list(3, "draft"));
  await page.waitForTimeout(800); // the draft is written a moment after the last keystroke

  // The session ends (its cookie gone, as when it expires): the next page asks to sign in again.
  await context.clearCookies();
  await page.reload();
  await expect(page).toHaveURL(/\/login\?next=%2Fruns%2Fnew/);
  await signIn();
  await expect(page).toHaveURL(/\/runs\/new$/);
  const offer = page.getByTestId("draft-offer");
  await expect(offer).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/run-new-draft-offer.png`, fullPage: true });
  await offer.getByRole("button", { name: "Restore it" }).click();
  await expect(page.getByLabel("Name")).toHaveValue("weekly prices");
  await expect(page.getByRole("textbox", { name: /URLs/ })).toHaveValue(list(3, "draft"));
  await expect(page.getByRole("button", { name: "Create the run with 3 URLs" })).toBeEnabled();

  // Created: the draft is forgotten, and a new form opens empty with nothing offered.
  await page.getByRole("button", { name: "Create the run with 3 URLs" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  await page.waitForTimeout(800);
  await page.goto("/runs/new");
  await expect(page.getByRole("heading", { level: 1, name: "New run" })).toBeVisible();
  await expect(page.getByTestId("draft-offer")).toHaveCount(0);
  await expect(page.getByLabel("Name")).toHaveValue("");
  await context.close();
});
