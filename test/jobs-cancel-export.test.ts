// Cancel, the CSV exports and the job timeline over real HTTP against Tally's server (run `npm run build`
// first), with a simulator as the platform: POST /api/jobs/{id}/cancel calls the platform's cancel and
// stores the outcome `cancelled`, answers finished jobs and extract jobs with a clear 409 and bad input
// with a 4xx; GET /api/jobs/export and GET /api/dead-letters/export stream a header row and exactly the
// rows the lists' filters select; GET /api/jobs/{id}'s timeline is the one the job's page shows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { getJobDetail } from "@/lib/jobs/detail";
import { API_KEY, startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import { parseCsv } from "./csv-parse";
import { createTestDb, type TestDb } from "./db";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let t: TestDb;
let sim: Awaited<ReturnType<typeof startSim>>;
let tally: TallyServer;

const KINDS = ["extract", "batch", "crawl"] as const;
const OUTCOMES = ["stored", "dead_lettered", "pending"] as const;

beforeAll(async () => {
  // Jobs run for a minute, so a submitted batch or crawl is still running when it is cancelled.
  sim = await startSim({ config: { jobDurationMs: [60_000, 60_000] } });
  t = await createTestDb();
  const base = Date.now() - 60 * 60_000;
  await db().job.createMany({
    data: Array.from({ length: 30 }, (_, i) => ({
      id: `exp-${String(i).padStart(2, "0")}`,
      kind: KINDS[i % 3],
      platformStatus: i % 3 === 2 ? "processing" : "completed",
      outcome: OUTCOMES[i % 3],
      url: `https://shop.example/export/${i},"quoted"`,
      createdAt: new Date(base + i * 1000),
    })),
  });
  await db().deadLetter.createMany({
    data: Array.from({ length: 12 }, (_, i) => ({
      jobId: `exp-${String(i).padStart(2, "0")}`,
      kind: "process_job",
      errorCode: i % 2 === 0 ? "TARGET_NOT_FOUND" : "TIMEOUT",
      errorMessage: `=failure ${i}`,
      state: i < 9 ? "open" : "discarded",
    })),
  });
  tally = await startTally(
    {
      SCRAPER_API_BASE_URL: sim.url,
      GEONODE_SCRAPER_API_KEY: API_KEY,
      TALLY_WORKER: "on",
      TALLY_API_RPS: "1000",
      DATABASE_URL: t.url,
    },
    t.file,
  );
});
afterAll(async () => {
  await tally?.stop();
  await sim?.close();
  await t?.cleanup();
});

const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };
async function api(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(tally.url + path, {
    method: init.method ?? "GET",
    headers: { ...auth, ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = z.record(z.string(), z.unknown()).parse(JSON.parse(text));
  } catch {
    // CSV answers are read as text
  }
  return { status: res.status, headers: res.headers, text, json };
}

async function submit(body: Record<string, unknown>): Promise<string> {
  const r = await api("/api/jobs", { method: "POST", body });
  expect(r.status, r.text).toBe(201);
  return z.string().parse(r.json.jobId);
}

describe("POST /api/jobs/:jobId/cancel", () => {
  it("cancels a running batch on the platform and stores the outcome cancelled, once", async () => {
    const jobId = await submit({
      kind: "batch",
      urls: ["https://example.com/cancel-a", "https://example.com/cancel-b"],
    });
    const r = await api(`/api/jobs/${jobId}/cancel`, { method: "POST" });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ jobId, kind: "batch", outcome: "cancelled", platformStatus: "cancelled" });
    // The platform itself says cancelled: the call really went out.
    expect((await sim.client().getJob("batch", jobId)).status).toBe("cancelled");
    const row = await db().job.findUniqueOrThrow({ where: { id: jobId } });
    expect(row).toMatchObject({ outcome: "cancelled", platformStatus: "cancelled" });
    expect(row.outcomeAt).not.toBeNull();
    const events = await db().jobEvent.findMany({ where: { jobId, type: "outcome" } });
    expect(events).toHaveLength(1);
    expect(await db().auditLog.count({ where: { action: "job.cancel", target: jobId, ok: true } })).toBe(1);

    // Again: already finished, answered clearly, nothing changes.
    const again = await api(`/api/jobs/${jobId}/cancel`, { method: "POST" });
    expect(again.status).toBe(409);
    expect(String(again.json.message)).toContain("already finished");
    expect(await db().jobEvent.count({ where: { jobId, type: "outcome" } })).toBe(1);
  });

  it("cancels a running crawl", async () => {
    const jobId = await submit({ kind: "crawl", url: "https://example.com/cancel-crawl", depth: 2 });
    const r = await api(`/api/jobs/${jobId}/cancel`, { method: "POST" });
    expect(r.status, r.text).toBe(200);
    expect((await sim.client().getJob("crawl", jobId)).status).toBe("cancelled");
    expect((await db().job.findUniqueOrThrow({ where: { id: jobId } })).outcome).toBe("cancelled");
  });

  it("a job the platform has finished but Tally has not recorded yet: 409 from the platform, outcome left to the worker", async () => {
    sim.sim.setConfig({ jobDurationMs: [10, 20] });
    const done = await sim.client().submitBatch({ urls: ["https://example.com/finished-first"] });
    await waitFor(
      "finished on the platform",
      async () => (await sim.client().getJob("batch", done.job_id)).status === "completed",
      10_000,
    );
    sim.sim.setConfig({ jobDurationMs: [60_000, 60_000] });
    await db().job.upsert({
      where: { id: done.job_id },
      create: { id: done.job_id, kind: "batch", platformStatus: "processing", outcome: "pending", origin: "submitted" },
      update: {},
    });
    const r = await api(`/api/jobs/${done.job_id}/cancel`, { method: "POST" });
    expect(r.status).toBe(409);
    expect(String(r.json.message)).toContain("already finished");
    expect((await db().job.findUniqueOrThrow({ where: { id: done.job_id } })).outcome).not.toBe("cancelled");
  });

  it("an extract job, an unknown job, a stored job and a request without credentials are refused and change nothing", async () => {
    const extract = await submit({ kind: "extract", url: "https://example.com/cannot-cancel" });
    const e = await api(`/api/jobs/${extract}/cancel`, { method: "POST" });
    expect(e.status).toBe(409);
    expect(String(e.json.message)).toContain("cannot cancel extract");
    expect((await db().job.findUniqueOrThrow({ where: { id: extract } })).outcome).toBe("pending");

    expect((await api("/api/jobs/no-such-job/cancel", { method: "POST" })).status).toBe(404);
    const stored = await api("/api/jobs/exp-00/cancel", { method: "POST" });
    expect(stored.status).toBe(409);
    expect(String(stored.json.message)).toContain("outcome is stored");
    expect((await api(`/api/jobs/${"x".repeat(300)}/cancel`, { method: "POST" })).status).toBe(400);
    const anonymous = await fetch(`${tally.url}/api/jobs/${extract}/cancel`, { method: "POST" });
    expect(anonymous.status).toBe(401);
    expect((await api(`/api/jobs/${extract}/cancel`)).status).toBe(405);
  });
});

describe("GET /api/jobs/:jobId timeline", () => {
  it("equals the job page's timeline, the webhook deliveries included", async () => {
    const jobId = await submit({ kind: "batch", urls: ["https://example.com/timeline"] });
    await db().inboundDelivery.create({
      data: {
        jobId,
        subscriptionId: "sub-1",
        deliveryId: "d-1",
        eventType: "batch_completed",
        status: 401,
        reason: "bad signature",
        latencyMs: 3,
        bodyBytes: 100,
      },
    });
    expect((await api(`/api/jobs/${jobId}/cancel`, { method: "POST" })).status).toBe(200);
    const r = await api(`/api/jobs/${jobId}`);
    expect(r.status).toBe(200);
    const page = await getJobDetail(jobId);
    expect(r.json.timeline).toEqual(page.timeline);
    const types = z
      .array(
        z.object({
          type: z.string(),
          title: z.string(),
          facts: z.array(z.object({ name: z.string(), value: z.string() })),
        }),
      )
      .parse(r.json.timeline);
    expect(types.map((e) => e.type)).toEqual(expect.arrayContaining(["submitted", "delivery", "outcome"]));
    // Words, not field names.
    const delivery = types.find((e) => e.type === "delivery");
    expect(delivery?.facts.map((f) => f.name)).toContain("answered in");
    expect(JSON.stringify(types)).not.toMatch(/latencyMs|queueAttempt/);
  });
});

describe("CSV exports", () => {
  it("GET /api/jobs/export: text/csv, a header row and exactly the filtered rows, in the list's order", async () => {
    const r = await api("/api/jobs/export?kind=batch&outcome=dead_lettered");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(r.headers.get("content-disposition")).toMatch(/attachment; filename="tally-jobs-.*\.csv"/);
    const rows = parseCsv(r.text);
    expect(rows[0]).toEqual([
      "jobId",
      "kind",
      "url",
      "platformStatus",
      "outcome",
      "origin",
      "attempts",
      "resultCount",
      "tokensCharged",
      "errorCode",
      "errorMessage",
      "resubmittedFromId",
      "resubmittedAsId",
      "createdAt",
      "outcomeAt",
    ]);
    const expected = Array.from({ length: 30 }, (_, i) => i)
      .filter((i) => i % 3 === 1)
      .reverse()
      .map((i) => `exp-${String(i).padStart(2, "0")}`);
    expect(rows.slice(1).map((c) => c[0])).toEqual(expected);
    // A URL with a comma and quotes survives the round trip.
    expect(rows[1]?.[2]).toBe('https://shop.example/export/28,"quoted"');
    const oldest = parseCsv((await api("/api/jobs/export?kind=batch&outcome=dead_lettered&sort=oldest")).text);
    expect(oldest.slice(1).map((c) => c[0])).toEqual([...expected].reverse());
    // The list's URL search and more than one CSV page (500 rows) are served the same way.
    expect(
      parseCsv((await api("/api/jobs/export?q=shop.example/export/1")).text)
        .slice(1)
        .map((c) => c[0])
        .sort(),
    ).toEqual([
      "exp-01",
      "exp-10",
      "exp-11",
      "exp-12",
      "exp-13",
      "exp-14",
      "exp-15",
      "exp-16",
      "exp-17",
      "exp-18",
      "exp-19",
    ]);
  });

  it("GET /api/dead-letters/export: the list's filter, formula cells defused", async () => {
    const r = await api("/api/dead-letters/export?state=open&errorCode=TIMEOUT");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/csv/);
    const rows = parseCsv(r.text);
    expect(rows[0]?.slice(0, 6)).toEqual(["id", "jobId", "kind", "state", "errorCode", "errorMessage"]);
    // open (first 9) and TIMEOUT (odd): exp-07, 05, 03, 01, newest first
    expect(rows.slice(1).map((c) => c[1])).toEqual(["exp-07", "exp-05", "exp-03", "exp-01"]);
    expect(rows[1]?.[5]).toBe("'=failure 7");
    const all = parseCsv((await api("/api/dead-letters/export?state=all")).text);
    expect(all).toHaveLength(13);
  });

  it("bad filters answer 400 with a reason", async () => {
    const a = await api("/api/jobs/export?status=exploded");
    expect(a.status).toBe(400);
    expect(String(a.json.message)).toContain("status");
    const b = await api("/api/dead-letters/export?state=lost");
    expect(b.status).toBe(400);
    expect(String(b.json.message)).toContain("state");
    expect((await fetch(`${tally.url}/api/jobs/export`)).status).toBe(401);
  });
});

describe("GET /api/overview/throughput", () => {
  it("counts deliveries and outcomes per minute over the last hour and per hour over the day; bad range 400", async () => {
    const now = Date.now();
    await db().inboundDelivery.createMany({
      data: [
        { receivedAt: new Date(now - 2 * 60_000), status: 200, latencyMs: 1, bodyBytes: 1 },
        { receivedAt: new Date(now - 2 * 60_000), status: 401, latencyMs: 1, bodyBytes: 1 },
        { receivedAt: new Date(now - 3 * 3_600_000), status: 200, latencyMs: 1, bodyBytes: 1 },
      ],
    });
    await db().job.createMany({
      data: [
        {
          id: "tp-1",
          kind: "extract",
          platformStatus: "completed",
          outcome: "stored",
          outcomeAt: new Date(now - 2 * 60_000),
        },
        {
          id: "tp-2",
          kind: "extract",
          platformStatus: "failed",
          outcome: "dead_lettered",
          outcomeAt: new Date(now - 3 * 3_600_000),
        },
      ],
    });
    const hour = await api("/api/overview/throughput?range=hour");
    expect(hour.status).toBe(200);
    const points = z
      .array(
        z.object({
          t: z.number(),
          accepted: z.number(),
          refused: z.number(),
          stored: z.number(),
          dead_lettered: z.number(),
        }),
      )
      .parse(hour.json.points);
    expect(points).toHaveLength(60);
    const minute = Math.floor((now - 2 * 60_000) / 60_000) * 60_000;
    expect(points.find((p) => p.t === minute)).toMatchObject({ accepted: expect.any(Number), refused: 1, stored: 1 });
    // the hour starts 59 minutes back: the day-old rows are not in it
    expect(points[0]?.t).toBeGreaterThan(now - 61 * 60_000);
    const hourDead = z.object({ dead_lettered: z.number() }).parse(hour.json.totals).dead_lettered;
    const day = await api("/api/overview/throughput?range=day");
    expect(day.status).toBe(200);
    expect(z.array(z.unknown()).parse(day.json.points)).toHaveLength(24);
    // tp-2, three hours ago, is in the day and not in the hour (other tests' jobs may add to both)
    expect(z.object({ dead_lettered: z.number() }).parse(day.json.totals).dead_lettered).toBe(hourDead + 1);
    const bad = await api("/api/overview/throughput?range=week");
    expect(bad.status).toBe(400);
    expect(String(bad.json.message)).toContain("range");
  });
});
