import { expect, test, operatorPage } from "./fixtures";
import { CALM, expectNoSidewaysScroll, postJson, setKnobs } from "./dashboard-helpers";
import { unwrap } from "../lib/api-client";
import { tallyApi } from "./api";

// A collection's content checks, ladder and caps in its edit form (issue 39): edited, saved, kept after a
// reload; the ladder's extra cost shown before it is enabled; a bad selector refused next to its field
// with nothing saved; a URL's history across the collection's runs with its rung, at desktop and phone widths.

const SHOTS = "test-results/screenshots";
let previous: Record<string, number | number[]> = {};
test.beforeAll(async ({ browser, tally }) => {
  const page = await operatorPage(browser, tally);
  previous = await setKnobs(page, { ...CALM, failureRate: 0, itemFailureRate: 0, jobDurationMs: [300, 1200] });
  await page.close();
});
test.afterAll(async ({ browser, tally }) => {
  const page = await operatorPage(browser, tally);
  await setKnobs(page, previous);
  await page.close();
});

async function newCollection(page: import("@playwright/test").Page, name: string, urls: string[]) {
  return { id: String((await postJson(page, "/api/collections", { name, urls })).id) };
}

test("edit a collection's checks, ladder and caps; reload: they are kept", async ({ page }) => {
  const urls = ["https://shop.example/catalogue/a", "https://shop.example/catalogue/b"];
  const c = await newCollection(page, "checked shop", urls);
  await page.goto(`/collections/${c.id}`);
  const form = page.getByRole("region", { name: "Content checks" });
  await form.getByLabel("Minimum text length").fill("40");
  await form.getByRole("button", { name: "Add to “Must contain”" }).click();
  await form.getByLabel("Must contain 1", { exact: true }).fill("Price");
  await form.getByRole("button", { name: "Add to “Must not contain”" }).click();
  await form.getByLabel("Must not contain 1: kind").selectOption("selector");
  await form.getByLabel("Must not contain 1", { exact: true }).fill("form#captcha-form");
  await form.getByLabel(/Block-page detector/).uncheck();

  // The ladder's extra cost is on the page before the ladder is switched on.
  const ladder = page.getByRole("region", { name: "Escalation ladder" });
  await ladder.getByLabel(/Send suspect or BLOCKED pages again/).uncheck();
  await expect(ladder.getByTestId("token-estimate")).toContainText("2 tokens at the first rung");
  await expect(ladder.getByTestId("token-estimate")).toContainText("the most it can cost is 8");
  await ladder.getByLabel(/Send suspect or BLOCKED pages again/).check();
  await ladder.getByRole("button", { name: "Remove rung 4" }).click();
  await expect(ladder.getByTestId("token-estimate")).toContainText("the most it can cost is 6");

  const caps = page.getByRole("region", { name: "Token caps" });
  await caps.getByLabel(/^Per run/).fill("-3");
  await expect(caps.getByText("A whole number of tokens, 1 or more.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
  await caps.getByLabel(/^Per run/).fill("500");
  await caps.getByLabel(/^Per month/).fill("20000");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved: the next run uses it.")).toBeVisible();

  await page.reload();
  await expect(form.getByLabel("Minimum text length")).toHaveValue("40");
  await expect(form.getByLabel("Must contain 1", { exact: true })).toHaveValue("Price");
  await expect(form.getByLabel("Must not contain 1: kind")).toHaveValue("selector");
  await expect(form.getByLabel("Must not contain 1", { exact: true })).toHaveValue("form#captcha-form");
  await expect(form.getByLabel(/Block-page detector/)).not.toBeChecked();
  await expect(ladder.getByText(/^Rung \d/)).toHaveCount(3);
  await expect(caps.getByLabel(/^Per run/)).toHaveValue("500");
  await expect(caps.getByLabel(/^Per month/)).toHaveValue("20000");
  const saved = await unwrap(
    (await tallyApi(page)).GET("/api/collections/{collectionId}", { params: { path: { collectionId: c.id } } }),
  );
  expect(saved).toMatchObject({
    checks: {
      minTextLength: 40,
      mustContain: [{ text: "Price" }],
      mustNotContain: [{ selector: "form#captcha-form" }],
    },
    maxTokens: 500,
    monthlyMaxTokens: 20000,
  });
  expect(saved.escalation).toHaveLength(3);

  for (const [width, tag] of [
    [1280, "desktop"],
    [390, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectNoSidewaysScroll(page);
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/collection-form-${tag}-view.png` });
    await page.screenshot({ path: `${SHOTS}/collection-form-${tag}.png`, fullPage: true });
  }
});

test("a bad selector is refused next to its field, and nothing is saved", async ({ page }) => {
  const c = await newCollection(page, "bad selector", ["https://shop.example/catalogue/c"]);
  await page.goto(`/collections/${c.id}`);
  const form = page.getByRole("region", { name: "Content checks" });
  await form.getByRole("button", { name: "Add to “Must contain”" }).click();
  await form.getByLabel("Must contain 1: kind").selectOption("selector");
  await form.getByLabel("Must contain 1", { exact: true }).fill("p:nth-child(");
  await page.getByLabel(/^Per run/).fill("77");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(form.getByText(/not a valid CSS selector/)).toBeVisible();
  await expect(form.getByLabel("Must contain 1", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Not saved")).toBeVisible();
  for (const [width, tag] of [
    [1280, "desktop"],
    [390, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expectNoSidewaysScroll(page);
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/collection-form-error-${tag}-view.png` });
  }
  const kept = await unwrap(
    (await tallyApi(page)).GET("/api/collections/{collectionId}", { params: { path: { collectionId: c.id } } }),
  );
  expect(kept).toMatchObject({ checks: null, maxTokens: null });
});

test("a URL's history across the collection's runs shows its rung", async ({ page }) => {
  test.setTimeout(150_000);
  const URL = "https://guarded.example/item-blocked/1";
  const c = await newCollection(page, "history", [URL, "https://shop.example/catalogue/d"]);
  const api = await tallyApi(page);
  let lastRun = "";
  for (let i = 0; i < 2; i++) {
    const { runId } = await unwrap(
      api.POST("/api/collections/{collectionId}/run", { params: { path: { collectionId: c.id } } }),
    );
    await expect
      .poll(async () => (await unwrap(api.GET("/api/runs/{runId}", { params: { path: { runId } } }))).state, {
        timeout: 120_000,
        intervals: [1000],
      })
      .toBe("completed");
    lastRun = runId;
  }
  for (const [width, tag] of [
    [1280, "desktop"],
    [390, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto(`/collections/${c.id}`);
    const card = page.getByRole("region", { name: "URL history" });
    await card.getByLabel(/^URL/).fill(URL);
    await card.getByRole("button", { name: "Show its history" }).click();
    const table = card.getByRole("table", { name: "The URL's runs" });
    await expect(table.locator("tbody tr")).toHaveCount(2);
    await expect(table).toContainText("stored");
    await expect(card.getByTestId("remembered-rung")).toContainText("Next run starts it at");
    await expectNoSidewaysScroll(page);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/collection-url-history-${tag}-view.png` });
    await page.screenshot({ path: `${SHOTS}/collection-url-history-${tag}.png`, fullPage: true });

    // The run's page says what its pages were judged by, and each URL links to its history.
    await page.goto(`/runs/${lastRun}`);
    const checks = page.getByRole("region", { name: "Content checks" });
    await expect(checks).toContainText("Block pages detected");
    await expect(checks.getByTestId("run-ladder")).toContainText("0 · plain");
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/collection-run-${tag}.png`, fullPage: true });
    await page.getByRole("link", { name: `History of ${URL} across the collection's runs` }).click();
    await page.waitForURL((u) => u.pathname === `/collections/${c.id}`);
    await expect(
      page
        .getByRole("region", { name: "URL history" })
        .getByRole("table", { name: "The URL's runs" })
        .locator("tbody tr"),
    ).toHaveCount(2);
  }
});
