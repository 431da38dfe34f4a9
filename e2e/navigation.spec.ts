import { expect, test, operatorPage } from "./fixtures";
import type { Locator, Page } from "@playwright/test";
import { CALM, expectNoSidewaysScroll, postJson, setKnobs, submitJob } from "./dashboard-helpers";

// The navigation (issue 41): grouped sections in a sidebar from 1024 px up, each item on one line and
// the current page marked (nested pages too); a Menu button on a phone that opens the same sections,
// works from the keyboard and closes on navigation; no dashboard page scrolls sideways at 390 px.
// Screenshots of every page at 1280, 1024 and 390 px land in the test's output folder.

const GROUPS = {
  Work: ["Runs", "Collections", "Jobs"],
  Intake: ["Deliveries", "Webhooks & secrets", "Dead letters"],
  Out: ["Outbound"],
  Operations: ["Operations", "API budget", "Alerts", "Settings"],
} as const;

// Every page under app/(dashboard) and app/(detail) with the item that marks it; beforeAll fills in the
// ids. The pages need not be finished (a pending job, a diff not ready yet): the frame around them is tested.
const ids = { job: "", operation: "", run: "", collection: "", collectionRun: "", url: "" };
function dashboardPages(): Array<[path: string, current: string]> {
  return [
    ["/", "Overview"],
    ["/runs", "Runs"],
    ["/runs/new", "Runs"],
    [`/runs/${ids.run}`, "Runs"],
    [`/runs/${ids.collectionRun}/diff?url=${encodeURIComponent(ids.url)}`, "Runs"],
    ["/collections", "Collections"],
    ["/collections/new", "Collections"],
    [`/collections/${ids.collection}`, "Collections"],
    ["/jobs", "Jobs"],
    ["/jobs/new", "Jobs"],
    [`/jobs/${ids.job}`, "Jobs"],
    ["/deliveries", "Deliveries"],
    ["/subscriptions", "Webhooks & secrets"],
    ["/dead-letters", "Dead letters"],
    ["/outbound", "Outbound"],
    ["/operations", "Operations"],
    [`/operations/${ids.operation}`, "Operations"],
    ["/budget", "API budget"],
    ["/alerts", "Alerts"],
    ["/settings", "Settings"],
    ["/settings/tokens", "Settings"],
    ["/settings/users", "Settings"],
  ];
}

let previous: Record<string, number | number[]> = {};
test.beforeAll(async ({ browser, tally }) => {
  test.setTimeout(180_000);
  const page = await operatorPage(browser, tally);
  previous = await setKnobs(page, { ...CALM, failureRate: 0, itemFailureRate: 0 });
  ids.job = await submitJob(page, { kind: "extract", url: "https://example.com/e2e-navigation" });
  ids.operation = String((await postJson(page, "/api/operations/reconcile")).runId);
  const urls = ["https://shop.example/nav/a", "https://shop.example/nav/b"];
  ids.run = String((await postJson(page, "/api/runs", { name: "navigation run", urls })).id);
  ids.collection = String((await postJson(page, "/api/collections", { name: "navigation collection", urls })).id);
  ids.collectionRun = String((await postJson(page, `/api/collections/${ids.collection}/run`)).runId);
  ids.url = urls[0];
  await page.close();
});
test.afterAll(async ({ browser, tally }) => {
  const page = await operatorPage(browser, tally);
  await setKnobs(page, previous);
  await page.close();
});

const sections = (page: Page) => page.getByRole("navigation", { name: "Sections" });

/** How many lines each link's text takes, and whether it is cut short. */
async function linkLines(nav: Locator) {
  return nav.getByRole("link").evaluateAll((links) =>
    links.map((a) => {
      const range = document.createRange();
      range.selectNodeContents(a);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      return { name: a.textContent, lines: tops.size, cut: a.scrollWidth > a.clientWidth };
    }),
  );
}

async function expectCurrent(page: Page, label: string) {
  // Hidden too: on a phone the closed menu still marks the page.
  const marked = page
    .getByRole("navigation", { name: "Sections", includeHidden: true })
    .locator('[aria-current="page"]');
  await expect(marked).toHaveCount(1);
  await expect(marked).toHaveText(label);
}

test("at 1280 px: the account in the top bar opens over the page, with sign-out", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/settings");
  const account = page.getByTestId("user-menu");
  await account.locator("summary").click();
  const signOut = account.getByRole("button", { name: "Sign out" });
  await expect(signOut).toBeInViewport();
  await expect(account.getByRole("link", { name: "API tokens" })).toBeInViewport();
  await page.screenshot({ path: test.info().outputPath("wide-account-open.png") });
});

for (const width of [1024, 1280, 1920]) {
  test(`at ${width} px: a sidebar of grouped sections, each item on one line, the current page marked`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const [path, current] of [
      ["/", "Overview"],
      ["/subscriptions", "Webhooks & secrets"],
      [`/runs/${ids.run}`, "Runs"],
      ["/settings/tokens", "Settings"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const nav = sections(page);
      await expect(nav).toBeVisible();
      await expect(page.getByRole("button", { name: /Menu/ })).toBeHidden();
      await expect(page.getByTestId("user-menu")).toBeVisible();
      for (const [group, items] of Object.entries(GROUPS)) {
        const links = nav.getByRole("group", { name: group }).getByRole("link");
        await expect(links).toHaveText([...items]);
      }
      for (const link of await linkLines(nav))
        expect(link, `${link.name} at ${width} px`).toEqual({ ...link, lines: 1, cut: false });
      // The sidebar sits beside the page, not over it.
      const navBox = await nav.boundingBox();
      const contentBox = await page.locator("main > div").boundingBox();
      expect(navBox!.height).toBeGreaterThan(400);
      expect(contentBox!.x).toBeGreaterThanOrEqual(navBox!.x + navBox!.width);
      await expectCurrent(page, current);
      await expectNoSidewaysScroll(page);
    }
  });
}

test("at 390 px: the Menu button opens the sections, by mouse and keyboard, and closes on navigation", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/jobs/new");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const menu = page.getByRole("button", { name: /Menu/ });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(sections(page)).toBeHidden();

  // Keyboard: Enter opens, Escape closes and gives the focus back; Space opens again.
  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(sections(page)).toBeVisible();
  for (const [group, items] of Object.entries(GROUPS))
    await expect(sections(page).getByRole("group", { name: group }).getByRole("link")).toHaveText([...items]);
  await expectCurrent(page, "Jobs");
  await expect(page.getByTestId("user-menu")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(sections(page)).toBeHidden();
  await expect(menu).toBeFocused();
  await page.keyboard.press("Space");
  await expect(sections(page)).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: test.info().outputPath("phone-menu-open.png"), fullPage: true });

  // A link navigates and the menu closes; the page it opened is marked.
  await sections(page).getByRole("link", { name: "Dead letters" }).click();
  await expect(page).toHaveURL(/\/dead-letters$/);
  await expect(page.getByRole("heading", { level: 1, name: "Dead letters" })).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(sections(page)).toBeHidden();
  await expectCurrent(page, "Dead letters");

  // Picking the page already open closes the menu too.
  await menu.click();
  await sections(page).getByRole("link", { name: "Dead letters" }).click();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
});

test("every dashboard page: the current page marked, no sideways scroll at 1280, 1024 and 390 px, screenshots of each", async ({
  page,
}) => {
  test.setTimeout(300_000);
  for (const [width, height, tag] of [
    [1280, 800, "wide"],
    [1024, 768, "narrow"],
    [390, 844, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const [path, current] of dashboardPages()) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      await expectCurrent(page, current);
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      expect(scrollWidth, `${path} at ${width} px scrolls sideways`).toBeLessThanOrEqual(clientWidth);
      const name = `${tag}${path.split("?")[0].replace(/\W+/g, "-")}`.replace(/-$/, "");
      await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
    }
  }
});
