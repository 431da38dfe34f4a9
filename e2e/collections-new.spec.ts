import { expect, test } from "./fixtures";
import { expectNoSidewaysScroll } from "./dashboard-helpers";

// Issue 49 item 1: a collection is made from the UI (the Collections page's "New collection", the edit
// form reused). A save with several problems shows all of them at once, each next to its field and
// tied to it for screen readers, with the focus on the first; nothing is saved until they are fixed.

const SHOTS = "test-results/screenshots";

test("New collection from the Collections page: every problem marked at once, then created and opened", async ({
  page,
}) => {
  const name = `made in the UI ${Date.now()}`;
  await page.goto("/collections");
  await page.getByRole("link", { name: "New collection" }).first().click();
  await expect(page).toHaveURL(/\/collections\/new$/);
  await expect(page.getByRole("heading", { level: 1, name: "New collection" })).toBeVisible();

  await page.getByLabel("Name").fill(name);
  const schedule = page.getByLabel("Schedule (cron)");
  const zone = page.getByLabel("Time zone (IANA)");
  const urls = page.getByLabel("URLs (one a line)");
  await schedule.fill("61 * * * *");
  await zone.fill("Mars/Olympus");
  await urls.fill("https://shop.example/new-ui/a\nnot a url");
  await page.getByRole("button", { name: "Create collection" }).click();

  // All three at once, each marked on its field, the first one focused.
  await expect(page.getByRole("alert").filter({ hasText: "Not created" })).toBeVisible();
  for (const field of [schedule, zone, urls]) await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(zone).toHaveAccessibleDescription(/Mars\/Olympus|time zone/i);
  await expect(urls).toHaveAccessibleDescription(/1 invalid line .*line 2/);
  await expect(schedule).toHaveAccessibleDescription(/.+/);
  await expect(schedule).toBeFocused();
  await expect(page).toHaveURL(/\/collections\/new$/);
  for (const [width, tag] of [
    [1440, "desktop"],
    [1024, "narrow"],
    [390, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/collection-new-problems-${tag}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // Fixed: created, and the new collection opens with its list and schedule.
  await schedule.fill("0 2 * * *");
  await zone.fill("Asia/Jakarta");
  await urls.fill("https://shop.example/new-ui/a\nhttps://shop.example/new-ui/b");
  await page.getByRole("button", { name: "Create collection" }).click();
  await expect(page).toHaveURL(/\/collections\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("Asia/Jakarta").first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/collection-new-created.png`, fullPage: true });

  // Exactly one was made, with the name typed.
  const list = (await (await page.request.get("/api/collections?limit=100")).json()) as {
    items: { name: string; urlCount: number }[];
  };
  expect(list.items.filter((c) => c.name === name)).toEqual([expect.objectContaining({ urlCount: 2 })]);
});
