import { readFile } from "node:fs/promises";
import { expect, test, operatorPage } from "./fixtures";
import type { Page } from "@playwright/test";
import { CALM, expectNoSidewaysScroll, setKnobs, submitJob, waitForOutcome } from "./dashboard-helpers";
import { unwrap } from "../lib/api-client";
import { tallyApi } from "./api";

// The operator's experience (issue 15): every page at phone size without sideways scroll or console
// errors, jobs submitted from /jobs/new with the API's field errors, a job cancelled from its page,
// CSV downloads of the filtered lists (the run page of each kind of run: e2e/operations.spec.ts).

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

function watchConsole(page: Page): () => string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    // Scraped pages are shown in a sandboxed frame without scripts; Chromium reports each script it
    // refused to run there. That is the inert rendering working (e2e/jobs.spec.ts proves it), not a fault.
    if (
      m.type() === "error" &&
      !/^Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/.test(m.text())
    ) {
      errors.push(`${page.url()}: ${m.text()}`);
    }
  });
  page.on("pageerror", (e) => errors.push(`${page.url()}: ${e.message}`));
  return () => errors;
}

test("every page at 390×844: no sideways scroll, no console errors, the menu opens", async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const jobId = await submitJob(page, {
    kind: "extract",
    url: "https://example.com/e2e-phone/a-very-long-path/that-would-once-break-every-few-characters",
  });
  await waitForOutcome(page, jobId, "stored");
  await page.goto("/");
  // The navigation is one "Menu" button on a phone; its links are the dashboard's pages.
  const menu = page.getByRole("button", { name: /Menu/ });
  await expect(menu).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Sections" })).toBeHidden();
  await menu.click();
  const nav = page.getByRole("navigation", { name: "Sections" });
  await expect(nav).toBeVisible();
  const hrefs = await nav.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? "/"));
  expect(hrefs.length).toBeGreaterThanOrEqual(8);
  const run = await unwrap((await tallyApi(page)).POST("/api/operations/reconcile", { body: {} }));
  const pages = [...new Set([...hrefs, "/jobs/new", `/jobs/${jobId}`, `/operations/${run.runId}`])];
  for (const path of pages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSidewaysScroll(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `test-results/screenshots/phone${path.replace(/\W+/g, "-")}.png`, fullPage: true });
  }
  // The icons answer (no 404 for /favicon.ico on every page load).
  expect((await page.request.get("/favicon.ico")).status()).toBe(200);
  expect(errors(), "console errors").toEqual([]);
});

test("/jobs/new: field errors from the API's schemas, then each kind submitted", async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  await page.goto("/jobs/new");
  await expect(page.getByRole("heading", { level: 1, name: "New job" })).toBeVisible();

  // Bad input: the message sits under the field it is about, and nothing is submitted.
  await page.getByLabel("URL", { exact: true }).fill("not a url");
  await page.getByRole("button", { name: "Submit extract job" }).click();
  await expect(page.getByLabel("URL", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("field-error")).toContainText(/URL/i);
  await expect(page).toHaveURL(/\/jobs\/new$/);

  await page.getByRole("radio", { name: /Crawl/ }).check();
  await page.getByLabel("Seed URL").fill("https://example.com/e2e-form-crawl");
  await page.getByLabel("Depth").fill("99");
  await page.getByRole("button", { name: "Submit crawl job" }).click();
  await expect(page.getByLabel("Depth")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("field-error")).toContainText(/10/);

  await page.getByRole("radio", { name: /Batch/ }).check();
  await page.getByRole("button", { name: "Submit batch job" }).click();
  await expect(page.getByLabel("URLs, one a line")).toHaveAttribute("aria-invalid", "true");

  // Good input, each kind: the job's page opens.
  const tag = Date.now();
  const cases = [
    {
      kind: /Extract/,
      fill: async () => page.getByLabel("URL", { exact: true }).fill(`https://example.com/e2e-form/${tag}/extract`),
      button: "Submit extract job",
    },
    {
      kind: /Batch/,
      fill: async () =>
        page
          .getByLabel("URLs, one a line")
          .fill(`https://example.com/e2e-form/${tag}/b1\nhttps://example.com/e2e-form/${tag}/b2`),
      button: "Submit batch job",
    },
    {
      kind: /Crawl/,
      fill: async () => {
        await page.getByLabel("Seed URL").fill(`https://example.com/e2e-form/${tag}/crawl`);
        await page.getByLabel("Depth").fill("2");
      },
      button: "Submit crawl job",
    },
  ];
  for (const c of cases) {
    await page.goto("/jobs/new");
    await page.getByRole("radio", { name: c.kind }).check();
    await c.fill();
    await page.getByRole("button", { name: c.button }).click();
    await expect(page).toHaveURL(/\/jobs\/(?!new)[^/]+$/, { timeout: 20_000 });
    await expect(page.getByTestId("job-id")).toHaveText(/\S{8,}/);
    await expect(page.getByText(`e2e-form/${tag}`).first()).toBeVisible();
  }
  // The browser logs each 400 it was answered (the bad inputs above); nothing else may be logged.
  expect(
    errors().filter((e) => !/status of 400/.test(e)),
    "console errors",
  ).toEqual([]);
});

test("cancel a running batch from its page; the jobs and dead-letter CSV downloads hold the filtered rows", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const before = await setKnobs(page, { jobDurationMs: [120_000, 120_000] });
  let jobId = "";
  try {
    jobId = await submitJob(page, {
      kind: "batch",
      urls: ["https://example.com/e2e-cancel/1", "https://example.com/e2e-cancel/2"],
    });
  } finally {
    await setKnobs(page, before);
  }
  await page.goto(`/jobs/${jobId}`);
  await page.getByRole("button", { name: "Cancel job" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel this job?" });
  await dialog.getByRole("button", { name: "Cancel job" }).click();
  await expect(page.getByTestId("job-outcome")).toHaveText("cancelled", { timeout: 20_000 });
  await expect(page.getByTestId("timeline")).toContainText("Outcome: cancelled");
  await expect(page.getByRole("button", { name: "Cancel job" })).toHaveCount(0);

  // The jobs list filtered to cancelled batches, downloaded as CSV from its link.
  await page.goto("/jobs?kind=batch&outcome=cancelled");
  const [jobsFile] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download jobs (CSV)" }).click(),
  ]);
  const jobsCsv = (await readFile(await jobsFile.path(), "utf8")).trim().split("\r\n");
  expect(jobsCsv[0]).toBe(
    "jobId,kind,url,platformStatus,outcome,origin,attempts,resultCount,tokensCharged,errorCode,errorMessage,resubmittedFromId,resubmittedAsId,createdAt,outcomeAt",
  );
  expect(jobsCsv.length).toBeGreaterThan(1);
  for (const line of jobsCsv.slice(1)) expect(line).toMatch(/^[^,]+,batch,.*,cancelled,/);
  expect(jobsCsv.filter((l) => l.startsWith(`${jobId},batch,`))).toHaveLength(1);

  // A job that fails for good, then the dead letters filtered to it.
  const failed = await submitJob(page, {
    kind: "extract",
    url: `https://example.com/sim-fail/e2e-export-${Date.now()}`,
  });
  await waitForOutcome(page, failed, "dead_lettered");
  await page.goto(`/dead-letters?jobId=${failed}`);
  const [dlFile] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  const dlCsv = (await readFile(await dlFile.path(), "utf8")).trim().split("\r\n");
  expect(dlCsv[0]).toBe(
    "id,jobId,kind,state,errorCode,errorMessage,attempts,jobUrl,jobOutcome,resolution,resolvedBy,resolvedAt,createdAt",
  );
  expect(dlCsv).toHaveLength(2);
  expect(dlCsv[1]).toContain(`,${failed},`);
});

test("the 401 chart: a spike after bad signatures, a labelled marker after a rotation, a link to those deliveries", async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.goto("/subscriptions");
  const tally = await tallyApi(page);
  const subs = await unwrap(tally.GET("/api/subscriptions"));
  const batch = subs.items.find((s) => s.eventType === "batch_completed");
  expect(batch).toBeTruthy();
  // Bad signatures on the batch subscription's URL: refused 401, counted per subscription.
  for (let i = 0; i < 8; i++) {
    const res = await page.request.post(`/webhooks/geonode/${batch?.id}`, {
      data: { event_type: "batch_completed", job_id: `bad-${i}` },
      headers: { "content-type": "application/json", "x-webhook-signature": "sha256=00" },
    });
    expect(res.status()).toBe(401);
  }
  await unwrap(tally.POST("/api/subscriptions/{id}/rotate", { params: { path: { id: String(batch?.id) } } }));
  await page.reload();
  const chart = page.getByRole("region", { name: "401s per minute, last hour" });
  const panel = chart.locator('[data-testid="chart-panel"][data-subscription="batch_completed"]');
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(panel).toContainText(/\d+ × 401 · peak \d+\/min/);
  const peak = Number(/peak (\d+)\/min/.exec((await panel.textContent()) ?? "")?.[1] ?? 0);
  expect(peak).toBeGreaterThanOrEqual(8);
  // red bars drawn, and the rotation's dashed line says whose rotation it was
  expect(await panel.locator('path[fill="#dc2626"], rect[fill="#dc2626"]').count()).toBeGreaterThan(0);
  await expect(panel.getByText(/batch_completed rotated \d/)).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: "test-results/screenshots/chart-401.png", fullPage: true });
  // The panel's link opens the deliveries page filtered to these 401s.
  await panel.getByRole("link", { name: "these deliveries" }).click();
  await expect(page).toHaveURL(/\/deliveries\?.*status=401/);
  await expect(page).toHaveURL(new RegExp(`subscriptionId=${batch?.id}`));
  const inbound = page.getByRole("table", { name: /Inbound deliveries/ });
  await expect(inbound.locator("tbody tr").first()).toContainText("401");
  for (const text of await inbound.locator("tbody tr").allTextContents()) expect(text).toContain("401");
});
