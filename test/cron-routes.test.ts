// The external scheduler's routes (TALLY_SCHEDULER=external) over real HTTP against the built server,
// with a simulator as the platform: only the cron secret opens them (by POST, or by GET as Vercel Cron calls them), bad input is a
// 400 with a reason, each route does its unit and says what it did, and a unit already running
// elsewhere (its lease held, or a reconciliation in progress) answers 409 and does nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { processJobItem } from "@/lib/jobs/process-job";
import { enqueue } from "@/lib/queue";
import { holdLease, releaseLease } from "@/lib/scheduling/lease";
import { API_KEY, startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import { createTestDb, type TestDb } from "./db";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

const SECRET = "cron-secret-0123456789abcdef";
const ROUTES = [
  "/api/cron/poll",
  "/api/cron/work",
  "/api/cron/reconcile",
  "/api/cron/retention",
  "/api/cron/alerts",
  "/api/cron/collections",
  "/api/cron/bodies-sweep",
];

let t: TestDb;
let sim: Awaited<ReturnType<typeof startSim>>;
let tally: TallyServer;

beforeAll(async () => {
  sim = await startSim();
  t = await createTestDb();
  tally = await startTally({
    DATABASE_URL: t.url,
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_SCHEDULER: "external",
    TALLY_CRON_SECRET: SECRET,
    TALLY_API_RPS: "1000",
    TALLY_RECONCILE_THRESHOLD_SECONDS: "0",
  });
});
afterAll(async () => {
  await tally?.stop();
  await sim?.close();
  await t?.cleanup();
});

const json = z.record(z.string(), z.unknown());
async function cron(path: string, opts: { secret?: string | null; body?: string; method?: string } = {}) {
  const secret = opts.secret === undefined ? SECRET : opts.secret;
  const res = await fetch(tally.url + path, {
    method: opts.method ?? "POST",
    headers: {
      ...(secret ? { authorization: `Bearer ${secret}` } : {}),
      ...(opts.body ? { "content-type": "application/json" } : {}),
    },
    body: opts.body,
  });
  const text = await res.text();
  return { status: res.status, json: text.startsWith("{") ? json.parse(JSON.parse(text)) : {} };
}

describe("cron routes", () => {
  it("started with no loops: neither the worker nor the schedules", () => {
    expect(tally.output()).not.toContain("worker started");
    expect(tally.output()).not.toContain("safety-net schedules started");
  });

  it.each(ROUTES)("%s answers 401 without the cron secret, with a wrong one, and with the API token", async (path) => {
    for (const secret of [null, "wrong-secret-0123456789abcdef", TEST_ENV.TALLY_API_TOKEN]) {
      const r = await cron(path, { secret });
      expect(r.status).toBe(401);
      expect(r.json).toMatchObject({ error: "unauthorized" });
    }
  });

  it.each(ROUTES)("%s by GET (as Vercel Cron calls it) needs the cron secret too", async (path) => {
    for (const secret of [null, "wrong-secret-0123456789abcdef", TEST_ENV.TALLY_API_TOKEN]) {
      expect((await cron(path, { method: "GET", secret })).status).toBe(401);
    }
  });

  it("GET with the cron secret does the unit, like POST", async () => {
    const r = await cron("/api/cron/retention", { method: "GET" });
    expect(r.status).toBe(200);
    expect(r.json).toBeTypeOf("object");
  });

  it.each(["maxSeconds=abc", "maxSeconds=-1", "maxSeconds=10000", "maxSeconds=1.5", "maxSecond=5"])(
    "/api/cron/work?%s is a 400 with a reason",
    async (q) => {
      const r = await cron(`/api/cron/work?${q}`);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ error: "bad_request", message: expect.stringMatching(/maxSecond/) });
    },
  );

  it("bad JSON bodies are 400s too", async () => {
    for (const body of ['{"maxSeconds":"abc"}', '{"maxSeconds":0}', "not json", "[1]"]) {
      const r = await cron("/api/cron/work", { body });
      expect(r.status, body).toBe(400);
      expect(r.json).toMatchObject({ error: "bad_request" });
    }
  });

  it("POST /api/cron/work drains items enqueued beforehand and reports what it handled", async () => {
    const ids: string[] = [];
    for (const kind of ["a", "b", "c"]) {
      const res = await fetch(`${tally.url}/api/jobs`, {
        method: "POST",
        headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ kind: "extract", url: `https://example.com/cron-${kind}`, formats: ["markdown"] }),
      });
      expect(res.status).toBe(201);
      ids.push(z.object({ jobId: z.string() }).parse(await res.json()).jobId);
    }
    for (const jobId of ids)
      await enqueue(db(), processJobItem({ jobId, eventType: "extract_completed", source: "webhook" }));
    const first = await cron("/api/cron/work", { body: JSON.stringify({ maxSeconds: 10 }) });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      unit: "work",
      maxSeconds: 10,
      handled: expect.any(Number),
      drained: expect.any(Boolean),
    });
    expect(first.json.handled).toBeGreaterThanOrEqual(1);
    // A job the platform had not finished yet is rescheduled, not stored: the scheduler's next call takes it.
    await waitFor(
      "all three stored",
      async () => {
        const stored = await db().job.count({ where: { id: { in: ids }, outcome: "stored" } });
        if (stored < 3) await cron("/api/cron/work?maxSeconds=5");
        return stored === 3;
      },
      20_000,
    );
    expect(await db().queueItem.count({ where: { jobId: { in: ids }, state: { not: "done" } } })).toBe(0);
    // Idempotent: nothing left, so a further call handles nothing and says the queue is drained.
    expect((await cron("/api/cron/work?maxSeconds=5")).json).toMatchObject({ handled: 0, drained: true });
  });

  it("POST /api/cron/alerts evaluates the rules once and reports what changed; a pass already running answers 409", async () => {
    await db().deadLetter.create({ data: { jobId: "cron-dead", kind: "process_job", errorMessage: "gave up" } });
    const first = await cron("/api/cron/alerts");
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ unit: "alerts", notifications: { attempted: 0 } });
    expect(first.json.transitions).toContainEqual({ rule: "dead_letters", from: "ok", to: "firing", event: "firing" });
    expect(await db().alertState.findUnique({ where: { rule: "dead_letters" } })).toMatchObject({ state: "firing" });
    // Still firing, within the repeat interval: nothing to report.
    expect((await cron("/api/cron/alerts")).json.transitions).toEqual([]);
    await holdLease("alerts:evaluate", 60_000, "another-process");
    try {
      expect((await cron("/api/cron/alerts")).status).toBe(409);
    } finally {
      await releaseLease("alerts:evaluate", "another-process");
    }
    await db().deadLetter.updateMany({ where: { jobId: "cron-dead" }, data: { state: "discarded" } });
    expect((await cron("/api/cron/alerts")).json.transitions).toContainEqual({
      rule: "dead_letters",
      from: "firing",
      to: "ok",
      event: "resolved",
    });
  });

  it("POST /api/cron/poll polls what is due and reports it", async () => {
    await db().job.create({
      data: {
        id: "poll-me",
        kind: "extract",
        platformStatus: "processing",
        outcome: "pending",
        url: "https://x",
        nextPollAt: new Date(0),
      },
    });
    // A run whose process stopped two minutes ago: the pass ends it.
    await db().operationRun.create({
      data: {
        id: "dead",
        kind: "reconcile",
        lockKey: "dead",
        startedBy: "x",
        heartbeatAt: new Date(Date.now() - 120_000),
      },
    });
    const r = await cron("/api/cron/poll");
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ unit: "poll", polled: 1, rateLimited: false, runsEnded: 1, rotationsRecovered: 0 });
    expect(await db().operationRun.findUnique({ where: { id: "dead" } })).toMatchObject({ state: "failed" });
  });

  it("POST /api/cron/reconcile runs one reconciliation to its end", async () => {
    const r = await cron("/api/cron/reconcile");
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ unit: "reconcile", state: "succeeded", summary: { listed: expect.any(Number) } });
    const run = await db().operationRun.findUnique({ where: { id: z.string().parse(r.json.runId) } });
    expect(run).toMatchObject({ kind: "reconcile", startedBy: "cron", state: "succeeded" });
  });

  it("POST /api/cron/retention prunes what is past retention", async () => {
    await db().inboundDelivery.create({
      data: { receivedAt: new Date(Date.now() - 400 * 86_400_000), status: 200, latencyMs: 1, bodyBytes: 0 },
    });
    const r = await cron("/api/cron/retention");
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      unit: "retention",
      deleted: { "inbound deliveries": 1 },
      previousSecretsCleared: 0,
    });
  });

  it.each(["poll", "work", "retention"])(
    "POST /api/cron/%s answers 409 and does nothing while another call holds the unit",
    async (unit) => {
      expect(await holdLease(`cron:${unit}`, 60_000, "another-call")).toBe(true);
      try {
        const r = await cron(`/api/cron/${unit}`);
        expect(r.status).toBe(409);
        expect(r.json).toMatchObject({ error: "conflict", message: expect.stringContaining("already running") });
      } finally {
        await releaseLease(`cron:${unit}`, "another-call");
      }
      expect((await cron(`/api/cron/${unit}`)).status).toBe(200);
    },
  );

  it("two concurrent calls: one does the unit, the other answers 409", async () => {
    const [a, b] = await Promise.all([cron("/api/cron/reconcile"), cron("/api/cron/reconcile")]);
    // 409 for the second unless the first had already finished when it arrived; never a 5xx.
    expect([a.status, b.status]).toContain(200);
    for (const s of [a.status, b.status]) expect([200, 409]).toContain(s);
    expect(await db().operationRun.count({ where: { kind: "reconcile", state: "running" } })).toBe(0);
  });

  it("the cron secret never appears in the server's output or its settings", async () => {
    expect(tally.output()).not.toContain(SECRET);
    const res = await fetch(`${tally.url}/settings`, {
      headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` },
    });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("TALLY_CRON_SECRET");
    expect(page).not.toContain(SECRET);
  });

  it("a reconciliation already running (started from the dashboard, say) makes the route answer 409", async () => {
    await db().operationRun.create({
      data: { id: "held", kind: "reconcile", state: "running", lockKey: "reconcile", startedBy: "operator" },
    });
    try {
      const r = await cron("/api/cron/reconcile");
      expect(r.status).toBe(409);
      expect(r.json).toMatchObject({ error: "conflict", details: { runId: "held" } });
    } finally {
      await db().operationRun.delete({ where: { id: "held" } });
    }
  });
});
