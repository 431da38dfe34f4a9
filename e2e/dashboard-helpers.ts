// Helpers for the dashboard specs: submit jobs and turn the demo simulator's knobs through Tally's own
// API (with the page's session and an Origin header, as the browser would send), and wait for outcomes.
import { expect, type APIRequestContext, type Page } from "@playwright/test";

type Knobs = Record<string, number | number[]>;

async function api(page: Page): Promise<{ request: APIRequestContext; headers: Record<string, string> }> {
  if (page.url() === "about:blank") await page.goto("/jobs?limit=1");
  return { request: page.request, headers: { origin: new URL(page.url()).origin, "content-type": "application/json" } };
}

/** Submits a job; the demo platform answers an occasional 429 or 5xx on purpose, so try a few times. */
export async function submitJob(page: Page, body: Record<string, unknown>): Promise<string> {
  const { request, headers } = await api(page);
  let last = "";
  for (let i = 0; i < 8; i++) {
    const res = await request.post("/api/jobs", { data: body, headers });
    const json: unknown = await res.json().catch(() => null);
    if (res.status() === 201 && json && typeof json === "object" && "jobId" in json && typeof json.jobId === "string")
      return json.jobId;
    last = `${res.status()} ${JSON.stringify(json)}`;
    await page.waitForTimeout(500 * (i + 1));
  }
  throw new Error(`could not submit a job: ${last}`);
}

/** The job's outcome as GET /api/jobs/:id reports it (or "unknown" before Tally has a row). */
export async function outcomeOf(page: Page, jobId: string): Promise<string> {
  const { request } = await api(page);
  const res = await request.get(`/api/jobs/${encodeURIComponent(jobId)}`);
  if (!res.ok()) return "unknown";
  const json: unknown = await res.json();
  return json && typeof json === "object" && "outcome" in json && typeof json.outcome === "string"
    ? json.outcome
    : "unknown";
}

export async function waitForOutcome(page: Page, jobId: string, outcome: string, timeout = 60_000): Promise<void> {
  await expect.poll(() => outcomeOf(page, jobId), { timeout, intervals: [500, 1000, 2000] }).toBe(outcome);
}

/** Changes simulator knobs; returns the previous values of the ones changed, to put back later. */
export async function setKnobs(page: Page, patch: Knobs): Promise<Knobs> {
  const { request, headers } = await api(page);
  const before = await request.get("/api/simulator/config");
  expect(before.ok(), `GET /api/simulator/config: ${before.status()}`).toBe(true);
  const current: unknown = await before.json();
  const previous: Knobs = {};
  if (current && typeof current === "object") {
    for (const [k, v] of Object.entries(current))
      if (k in patch && (typeof v === "number" || Array.isArray(v))) previous[k] = v;
  }
  const res = await request.post("/api/simulator/config", { data: patch, headers });
  expect(res.ok(), `POST /api/simulator/config: ${res.status()} ${await res.text()}`).toBe(true);
  return previous;
}

/** Faults that would make a single run flaky (dropped webhooks wait for reconciliation). */
export const CALM = { webhookDropRate: 0, rateLimitRate: 0, serverErrorRate: 0, earlyWebhookRate: 0 };

/** The page must not scroll sideways: long scraped lines wrap instead of widening the layout. */
// Polled: after a viewport change, charts resize on their ResizeObserver's next callback.
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
      message: "page is wider than the window",
      timeout: 5_000,
    })
    .toBeLessThanOrEqual(1);
}

/** POSTs JSON to Tally's API with the page's session, as the dashboard's buttons do; expects a 2xx. */
export async function postJson(page: Page, path: string, data: unknown = {}): Promise<Record<string, unknown>> {
  const { request, headers } = await api(page);
  const res = await request.post(path, { data, headers });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.json() as Promise<Record<string, unknown>>;
}
