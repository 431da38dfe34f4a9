import { readFile } from "node:fs/promises";
import { expect, test, operatorPage } from "./fixtures";
import type { Page } from "@playwright/test";
import { CALM, expectNoSidewaysScroll, setKnobs, submitJob, waitForOutcome } from "./dashboard-helpers";
import { unwrap } from "../lib/api-client";
import { tallyApi } from "./api";

let previous: Record<string, number | number[]> = {};
test.beforeAll(async ({ browser, tally }) => {
  const page = await operatorPage(browser, tally);
  previous = await setKnobs(page, { ...CALM, failureRate: 0 });
  await page.close();
});
test.afterAll(async ({ browser, tally }) => {
  const page = await operatorPage(browser, tally);
  await setKnobs(page, previous);
  await page.close();
});

const rows = (page: Page) => page.getByRole("table", { name: "Jobs" }).locator("tbody tr");

test("jobs: filters in the URL, keyset pages, readable bad values", async ({ page }) => {
  test.setTimeout(120_000);
  const tag = `e2e-list-${Date.now()}`;
  for (let i = 0; i < 3; i++) await submitJob(page, { kind: "extract", url: `https://example.com/${tag}/${i}` });

  await page.goto("/jobs");
  await page.getByLabel("Search job id or URL").fill(`example.com/${tag}`);
  await page.getByLabel("Kind").selectOption("extract");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/q=example.com%2Fe2e-list-\d+.*kind=extract|kind=extract.*q=example.com%2Fe2e-list/);
  await expect(rows(page)).toHaveCount(3);
  for (const text of await rows(page).allTextContents()) expect(text).toContain(tag);
  await page.screenshot({ path: "test-results/screenshots/jobs.png", fullPage: true });

  // Two per page: the second page holds the third job, none repeated.
  // The table fills after the page loads: wait for the rows before reading them.
  await page.goto(`/jobs?q=example.com/${tag}&limit=2`);
  await expect(rows(page)).toHaveCount(2);
  const first = await rows(page).allTextContents();
  await page.getByRole("link", { name: "Next page →" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(rows(page)).toHaveCount(1);
  const second = await rows(page).allTextContents();
  expect(first).not.toContain(second[0]);
  await expect(page.getByRole("link", { name: "Next page →" })).toHaveCount(0);

  // Oldest first puts the first submission on top.
  await page.goto(`/jobs?q=example.com/${tag}&sort=oldest`);
  await expect(rows(page).first()).toContainText(`${tag}/0`);

  await page.goto("/jobs?status=exploded&limit=zero");
  const problem = page.getByRole("alert").filter({ hasText: "not understood" });
  await expect(problem).toContainText("status: must be one of");
  await expect(problem).toContainText("limit:");
  await expect(page.getByRole("table", { name: "Jobs" })).toBeVisible();
});

test("jobs: the download link carries the current filters and downloads that job's results", async ({ page }) => {
  test.setTimeout(120_000);
  const tag = `e2e-export-${Date.now()}`;
  const jobId = await submitJob(page, { kind: "extract", url: `https://example.com/${tag}`, formats: ["markdown"] });
  await waitForOutcome(page, jobId, "stored");

  await page.goto("/jobs?status=exploded");
  await page.getByLabel("Search job id or URL").fill(`example.com/${tag}`);
  await page.getByLabel("Kind").selectOption("extract");
  await page.getByLabel("Outcome").selectOption("stored");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/outcome=stored/);
  await expect(rows(page)).toHaveCount(1);

  const link = page.getByRole("link", { name: "Download results" });
  await expect(link).toHaveAttribute("download", "");
  const href = new URL((await link.getAttribute("href")) ?? "", page.url());
  expect(href.pathname).toBe("/api/results/export");
  expect(Object.fromEntries(href.searchParams)).toEqual({
    format: "csv",
    q: `example.com/${tag}`,
    kind: "extract",
    outcome: "stored",
  });

  // A later page or another order downloads the same: the cursor and sort are not filters.
  await page.goto(`/jobs?q=example.com/${tag}&kind=extract&outcome=stored&sort=oldest&limit=1`);
  expect(await link.getAttribute("href")).toBe(
    `/api/results/export?format=csv&outcome=stored&kind=extract&q=example.com%2F${tag}`,
  );

  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^tally-results-\d{8}T\d{6}Z\.csv$/);
  const csv = await readFile(await download.path(), "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe(
    "jobId,kind,itemKey,url,status,format,markdown,html,metadata,errorCode,errorMessage,tokensCharged,createdAt,bodyError",
  );
  expect(lines.filter((l) => l.startsWith(`${jobId},extract,0,`))).toHaveLength(1);
});

test("job detail: the timeline from submission to stored; unknown job is a 404", async ({ page }) => {
  test.setTimeout(120_000);
  const jobId = await submitJob(page, {
    kind: "extract",
    url: "https://example.com/e2e-detail",
    formats: ["markdown"],
  });
  await waitForOutcome(page, jobId, "stored");
  await page.goto(`/jobs/${jobId}`);
  await expect(page.getByTestId("job-id")).toHaveText(jobId);
  await expect(page.getByTestId("job-outcome")).toContainText("stored");
  const timeline = page.getByTestId("timeline");
  await expect(timeline).toContainText("Submitted to the platform");
  await expect(timeline).toContainText("Webhook delivery received: answered 200");
  await expect(timeline).toContainText("Worker attempt: the platform says completed");
  await expect(timeline).toContainText("Outcome: stored");
  await expect(page.getByTestId("markdown-preview")).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/job-detail.png", fullPage: true });

  // The page streams behind loading.tsx, so Next answers 200 and marks the not-found page noindex.
  await page.goto("/jobs/no-such-job-e2e");
  await expect(page.getByRole("heading", { name: "Job not found" })).toBeVisible();
  await expect(page.locator('meta[name="robots"][content*="noindex"]').first()).toBeAttached();
});

test("job detail: a stored batch says N of M items failed and lists them; a clean batch says 0", async ({ page }) => {
  test.setTimeout(120_000);
  const knobs = await setKnobs(page, { itemFailureRate: 0 });
  try {
    // item-fail-NNN: the simulator fails that item with the target status NNN.
    const urls = [
      "https://shop.example/e2e-items/a",
      "https://shop.example/e2e-items/item-fail-404/gone",
      "https://shop.example/e2e-items/b",
      "https://shop.example/e2e-items/item-fail-503/busy",
      "https://shop.example/e2e-items/c",
    ];
    const mixed = await submitJob(page, { kind: "batch", urls });
    const clean = await submitJob(page, {
      kind: "batch",
      urls: ["https://shop.example/e2e-items/ok-1", "https://shop.example/e2e-items/ok-2"],
    });
    await waitForOutcome(page, mixed, "stored");
    await waitForOutcome(page, clean, "stored");

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/jobs/${mixed}`);
    const line = page.getByTestId("job-items");
    await expect(line).toContainText("2 of 5 items failed");
    await expect(line).toHaveClass(/amber/);
    const failed = page.getByTestId("failed-items").locator("tr");
    await expect(failed).toHaveCount(2);
    await expect(page.getByTestId("failed-items")).toContainText("item-fail-404/gone");
    await expect(page.getByTestId("failed-items")).toContainText("item-fail-503/busy");
    await line.getByRole("link", { name: "See the failed items" }).click();
    await expect(page).toHaveURL(/#failed-items$/);
    // The API link lists the failed items, and only them.
    const href = await page.getByTestId("failed-items-api").getAttribute("href");
    const res = await page.request.get(href ?? "");
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { items: Array<{ status: string; errorCode: string | null }> };
    expect(body.items.map((i) => i.status)).toEqual(["failed", "failed"]);
    expect(body.items.every((i) => i.errorCode)).toBe(true);
    const job = await unwrap((await tallyApi(page)).GET("/api/jobs/{jobId}", { params: { path: { jobId: mixed } } }));
    expect(job).toHaveProperty("items", { total: 5, stored: 3, failed: 2 });
    await page.screenshot({ path: "test-results/screenshots/job-items-failed.png", fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: "test-results/screenshots/job-items-failed-phone.png", fullPage: true });
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.goto(`/jobs/${clean}`);
    await expect(page.getByTestId("job-items")).toContainText("0 of 2 items failed");
    await expect(page.getByTestId("job-items")).not.toHaveClass(/amber/);
    await expect(page.getByTestId("failed-items")).toHaveCount(0);
  } finally {
    await setKnobs(page, knobs);
  }
});

test("a scraped page with <script> and onerror handlers is shown without running them", async ({ page }) => {
  test.setTimeout(120_000);
  const dialogs: string[] = [];
  const console: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  // The browser's own note that it blocked the sandboxed frame's scripts is proof, not a failure.
  page.on("console", (m) => {
    if (!/Blocked script execution|sandboxed|Content Security Policy|Refused to/i.test(m.text()))
      console.push(`${m.type()}: ${m.text()}`);
  });
  const jobId = await submitJob(page, {
    kind: "extract",
    url: "https://example.com/hostile",
    formats: ["markdown", "html"],
  });
  await waitForOutcome(page, jobId, "stored");
  await page.goto(`/jobs/${jobId}`);

  const frame = page.getByTestId("html-frame");
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(page.getByTestId("markdown-preview")).toContainText("<img src=x onerror=alert(1)>");
  await page.getByText("HTML source", { exact: true }).click();
  await expect(page.getByTestId("html-source")).toContainText("<script>alert(1)</script>");
  await expect(page.getByTestId("markdown-preview")).toContainText("⟨U+202E⟩");
  // Nothing of the scraped page became markup in the dashboard's own document.
  expect(await page.locator("img[onerror], svg[onload], [onmouseover]").count()).toBe(0);
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
  await frame.hover();
  await page.waitForTimeout(1500);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: "test-results/screenshots/job-hostile.png", fullPage: true });

  expect(dialogs).toEqual([]);
  expect(console).toEqual([]);
});
