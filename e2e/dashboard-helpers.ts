// Helpers for the dashboard specs: submit jobs and turn the demo simulator's knobs through Tally's own
// API (the typed client, with the page's session and an Origin header, as the browser would send), and
// wait for outcomes.
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { z } from "zod";
import type { operations } from "../lib/api-client";
import { simulatorKnobsPatchSchema, type SimulatorKnobsPatch as Knobs } from "../lib/demo/client";
import { tallyApi } from "./api";

type JobRequest = NonNullable<operations["postJobs"]["requestBody"]>["content"]["application/json"];

// POST /api/jobs and GET /api/jobs/{jobId} have no answer schema in the document yet: read what is needed.
const submitted = z.object({ jobId: z.string() });
const withOutcome = z.object({ outcome: z.string().nullable() });

async function api(page: Page): Promise<{ request: APIRequestContext; headers: Record<string, string> }> {
  if (page.url() === "about:blank") await page.goto("/jobs?limit=1");
  return { request: page.request, headers: { origin: new URL(page.url()).origin, "content-type": "application/json" } };
}

/** Submits a job; the demo platform answers an occasional 429 or 5xx on purpose, so try a few times. */
export async function submitJob(page: Page, body: JobRequest): Promise<string> {
  const tally = await tallyApi(page);
  let last = "";
  for (let i = 0; i < 8; i++) {
    const { data, error, response } = await tally.POST("/api/jobs", { body });
    const job = submitted.safeParse(data);
    if (response.status === 201 && job.success) return job.data.jobId;
    last = `${response.status} ${JSON.stringify(error ?? data)}`;
    await page.waitForTimeout(500 * (i + 1));
  }
  throw new Error(`could not submit a job: ${last}`);
}

/** The job's outcome as GET /api/jobs/:id reports it (or "unknown" before Tally has a row). */
export async function outcomeOf(page: Page, jobId: string): Promise<string> {
  const tally = await tallyApi(page);
  const { data } = await tally.GET("/api/jobs/{jobId}", { params: { path: { jobId } } });
  return withOutcome.safeParse(data).data?.outcome ?? "unknown";
}

export async function waitForOutcome(page: Page, jobId: string, outcome: string, timeout = 60_000): Promise<void> {
  await expect.poll(() => outcomeOf(page, jobId), { timeout, intervals: [500, 1000, 2000] }).toBe(outcome);
}

/** Changes simulator knobs; returns the previous values of the ones changed, to put back later. */
export async function setKnobs(page: Page, patch: Knobs): Promise<Knobs> {
  const tally = await tallyApi(page);
  const before = await tally.GET("/api/simulator/config");
  expect(before.response.ok, `GET /api/simulator/config: ${before.response.status}`).toBe(true);
  const current: Record<string, unknown> = { ...before.data };
  const previous = simulatorKnobsPatchSchema.parse(
    Object.fromEntries(Object.keys(patch).flatMap((k) => (k in current ? [[k, current[k]]] : []))),
  );
  const res = await tally.POST("/api/simulator/config", { body: patch });
  expect(res.response.ok, `POST /api/simulator/config: ${res.response.status} ${JSON.stringify(res.error)}`).toBe(true);
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
