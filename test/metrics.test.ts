// GET /api/metrics over real HTTP against Tally's server (what `npm start` runs), with a simulator as
// the platform: only a bearer (TALLY_METRICS_TOKEN or the API token) opens it, and counters move by
// exactly what was driven through the receiver, the worker and a safety net between two scrapes.
// Runs on PostgreSQL too (vitest.postgres.config.mts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { API_KEY, startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import { createTestDb, type TestDb } from "./db";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";
import { metricValue as value } from "./metrics-text";
import { deliver, envelope } from "./webhook-client";

const CRON = "cron-secret-0123456789abcdef";
const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const HOOK_SECRET = "whsec_metrics_test_secret_value";

let t: TestDb;
let sim: Awaited<ReturnType<typeof startSim>>;
let tally: TallyServer;

beforeAll(async () => {
  sim = await startSim();
  t = await createTestDb();
  await db().subscription.create({
    data: { id: "sub-m", eventType: "extract_completed", url: "http://x", scheme: "hmac", secret: HOOK_SECRET },
  });
  tally = await startTally({
    DATABASE_URL: t.url,
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_SCHEDULER: "external",
    TALLY_CRON_SECRET: CRON,
    TALLY_METRICS_TOKEN: METRICS_TOKEN,
    TALLY_API_RPS: "1000",
    TALLY_RECONCILE_THRESHOLD_SECONDS: "0",
  });
});
afterAll(async () => {
  await tally?.stop();
  await sim?.close();
  await t?.cleanup();
});

async function scrape(token = METRICS_TOKEN): Promise<string> {
  const res = await fetch(`${tally.url}/api/metrics`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

const cron = (path: string) =>
  fetch(tally.url + path, { method: "POST", headers: { authorization: `Bearer ${CRON}` } }).then(async (r) => ({
    status: r.status,
    json: z.record(z.string(), z.unknown()).parse(await r.json()),
  }));

describe("GET /api/metrics", () => {
  it("answers 401 without a bearer, with a wrong one, and with the cron secret; 200 with the metrics token or the API token", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: "Bearer wrong-token-0123456789abcdef" },
      { authorization: `Bearer ${CRON}` },
      { authorization: METRICS_TOKEN },
    ]) {
      const res = await fetch(`${tally.url}/api/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: "unauthorized" });
    }
    expect(await scrape(TEST_ENV.TALLY_API_TOKEN)).toContain("tally_deliveries_total");
  });

  it("does not open to an operator session (the dashboard login does not apply)", async () => {
    const login = await fetch(`${tally.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: tally.url },
      body: JSON.stringify({ password: TEST_ENV.TALLY_OPERATOR_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    expect(cookie).toMatch(/=/);
    expect((await fetch(`${tally.url}/api/overview`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${tally.url}/api/metrics`, { headers: { cookie } })).status).toBe(401);
  });

  it("echoes X-Request-Id on the app and on the receiver, and makes one when none is sent", async () => {
    const mine = await fetch(`${tally.url}/api/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}`, "x-request-id": "req-abc.123" },
    });
    expect(mine.headers.get("x-request-id")).toBe("req-abc.123");
    const made = await fetch(`${tally.url}/api/health`);
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const hostile = await fetch(`${tally.url}/api/health`, { headers: { "x-request-id": 'a b"<script>' } });
    expect(hostile.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const receiver = await fetch(`${tally.url}/webhooks/geonode/sub-m`, {
      method: "POST",
      headers: { "x-request-id": "rcv-1" },
      body: "{}",
    });
    expect(receiver.status).toBe(401);
    expect(receiver.headers.get("x-request-id")).toBe("rcv-1");
  });

  it("counts deliveries, job outcomes, platform calls, queue depth, dead letters and safety-net runs by the right amounts", async () => {
    const before = await scrape();
    expect(before).toMatch(/^process_cpu_user_seconds_total\{process="[^"]+"\} /m);
    expect(before).toMatch(/^nodejs_heap_size_used_bytes\{process="[^"]+"\} /m);

    // Three real jobs on the simulator (three POST /v1/extract calls), each announced by a signed delivery.
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await fetch(`${tally.url}/api/jobs`, {
        method: "POST",
        headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ kind: "extract", url: `https://example.com/metrics-${n}`, formats: ["markdown"] }),
      });
      expect(res.status).toBe(201);
      ids.push(z.object({ jobId: z.string() }).parse(await res.json()).jobId);
    }
    const hook = (key: string, body: string, secret?: string) =>
      deliver(`${tally.url}/webhooks/geonode/${key}`, body, { secret });
    for (const id of ids) expect((await hook("sub-m", envelope(id), HOOK_SECRET)).json).toEqual({ status: "accepted" });
    expect((await hook("sub-m", envelope(ids[0]), HOOK_SECRET)).json).toEqual({ status: "duplicate" });
    expect((await hook("sub-m", envelope("job-x", "some_new_event"), HOOK_SECRET)).json).toEqual({ status: "ignored" });
    for (let i = 0; i < 2; i++) expect((await hook("sub-m", envelope("job-bad"), "not-the-secret")).status).toBe(401);
    expect((await hook("no-such-sub", envelope("job-y"), HOOK_SECRET)).status).toBe(404);
    expect((await hook("sub-m", "{not json", HOOK_SECRET)).status).toBe(400);

    // The worker, driven as an external scheduler would, until all three are stored.
    await waitFor(
      "all three stored",
      async () => {
        await cron("/api/cron/work?maxSeconds=5");
        return (await db().job.count({ where: { id: { in: ids }, outcome: "stored" } })) === 3;
      },
      30_000,
    );
    // One reconciliation run, and one dead letter left open.
    expect((await cron("/api/cron/reconcile")).json).toMatchObject({ state: "succeeded" });
    await db().deadLetter.create({ data: { jobId: "job-dead", kind: "process_job", errorMessage: "gave up" } });

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      value(after, name, labels) - value(before, name, labels);
    expect(moved("tally_deliveries_total", { status: "accepted" })).toBe(3);
    expect(moved("tally_deliveries_total", { status: "duplicate" })).toBe(1);
    expect(moved("tally_deliveries_total", { status: "ignored" })).toBe(1);
    // The request-id check above sent one more 401 before `before`; only these two count here.
    expect(moved("tally_deliveries_total", { status: "401" })).toBe(2);
    expect(moved("tally_deliveries_total", { status: "404" })).toBe(1);
    expect(moved("tally_deliveries_total", { status: "400" })).toBe(1);
    expect(moved("tally_delivery_duration_seconds_count")).toBe(9);
    expect(moved("tally_job_outcomes_total", { kind: "extract", outcome: "stored" })).toBe(3);
    expect(moved("tally_settled_to_stored_seconds_count")).toBe(3);
    expect(moved("tally_platform_calls_total", { endpoint: "POST /v1/extract", status_class: "2xx" })).toBe(3);
    expect(
      moved("tally_platform_calls_total", { endpoint: "GET /v1/extract/{job_id}", status_class: "2xx" }),
    ).toBeGreaterThanOrEqual(3);
    expect(moved("tally_safety_net_runs_total", { kind: "reconcile", state: "succeeded" })).toBe(1);
    // Shared state, read from the database at scrape time (no process label).
    expect(value(after, "tally_dead_letters_open") - value(before, "tally_dead_letters_open")).toBe(1);
    expect(after).toMatch(/^tally_dead_letters_open \d+$/m);
    expect(moved("tally_queue_items", { state: "done" })).toBeGreaterThanOrEqual(3);
    expect(value(after, "tally_queue_items", { state: "ready" })).toBe(
      await db().queueItem.count({ where: { state: "ready" } }),
    );
    expect(after).toMatch(/^tally_queue_oldest_ready_age_seconds \d/m);
    expect(after).toMatch(/^tally_platform_rate_limited_seconds_total\{process="[^"]+"\} /m);
  });
});
