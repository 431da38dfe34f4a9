// The reference deployment's metrics: a server with TALLY_WORKER=off takes the jobs and the
// deliveries, a separate `npm run worker` process does the work, and that worker's own listener
// (TALLY_METRICS_PORT) shows its job outcomes, moved by exactly the jobs it stored, under a `process`
// label of its own. Same bearer and 401 as the server's /api/metrics; /api/health beside it; a taken
// port stops a worker at start with a message; a worker without the port says its metrics are not
// exposed; SIGTERM closes the listener. Runs on PostgreSQL too (vitest.postgres.config.mts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { API_KEY, startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import { startWorkerProcess, type WorkerProc } from "../scripts/chaos/processes";
import { createTestDb, type TestDb } from "./db";
import { metricValue, processLabels } from "./metrics-text";
import { freePort, runToExit, startTally, TEST_ENV, type TallyServer } from "./tally-server";
import { deliver, envelope } from "./webhook-client";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const HOOK_SECRET = "whsec_worker_metrics_secret_value";

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;
let tally: TallyServer;
let worker: WorkerProc;
let workerEnv: Record<string, string>;
let metricsUrl: string;

beforeAll(async () => {
  sim = await startSim();
  t = await createTestDb();
  await db().subscription.create({
    data: { id: "sub-w", eventType: "extract_completed", url: "http://x", scheme: "hmac", secret: HOOK_SECRET },
  });
  const shared = {
    DATABASE_URL: t.url,
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_METRICS_TOKEN: METRICS_TOKEN,
    TALLY_API_RPS: "1000",
  };
  // The server does no queue work and runs no schedules: every outcome is the worker's.
  tally = await startTally({ ...shared, TALLY_WORKER: "off", TALLY_SCHEDULER: "off" });
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}`;
  workerEnv = {
    ...TEST_ENV,
    ...shared,
    TALLY_SCHEDULER: "off",
    TALLY_LOG_LEVEL: "info",
    TALLY_METRICS_PORT: String(port),
  };
  worker = startWorkerProcess(workerEnv);
  await waitFor(
    "the worker and its metrics listener",
    () => worker.output().includes("worker started") && worker.output().includes("worker metrics on"),
    120_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n${worker.output()}`);
  });
}, 180_000);

afterAll(async () => {
  await worker?.stop().catch(() => undefined);
  await tally?.stop();
  await sim?.close();
  await t?.cleanup();
});

async function scrape(base: string): Promise<string> {
  const res = await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

describe("npm run worker with TALLY_METRICS_PORT", () => {
  it("logs where its metrics are, never the token", () => {
    expect(worker.output()).toContain(`worker metrics on http://0.0.0.0:${new URL(metricsUrl).port}/api/metrics`);
    expect(worker.output()).not.toContain(METRICS_TOKEN);
  });

  it("answers 401 like the server's /api/metrics without the token, with a wrong one and with no Bearer; 200 with the API token", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: "Bearer wrong-token-0123456789abcdef" },
      { authorization: METRICS_TOKEN },
    ]) {
      const [mine, server] = await Promise.all([
        fetch(`${metricsUrl}/api/metrics`, { headers }),
        fetch(`${tally.url}/api/metrics`, { headers }),
      ]);
      expect(mine.status).toBe(401);
      expect(server.status).toBe(401);
      expect(mine.headers.get("www-authenticate")).toBe('Bearer realm="tally-metrics"');
      expect(mine.headers.get("www-authenticate")).toBe(server.headers.get("www-authenticate"));
      expect(await mine.json()).toEqual(await server.json());
    }
    const api = await fetch(`${metricsUrl}/api/metrics`, {
      headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` },
    });
    expect(api.status).toBe(200);
    expect(await api.text()).toContain("tally_job_outcomes_total");
  });

  it("serves /api/health, 404 elsewhere, 405 for other methods", async () => {
    const health = await fetch(`${metricsUrl}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", database: "ok", role: "worker" });
    const elsewhere = await fetch(`${metricsUrl}/api/jobs`, {
      headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` },
    });
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ error: "not_found" });
    for (const p of ["/api/metrics", "/api/health"]) {
      const res = await fetch(metricsUrl + p, {
        method: "POST",
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET");
    }
  });

  it(
    "counts the jobs it stored, exactly, under its own process label; the server counts none of them",
    { timeout: 120_000 },
    async () => {
      const [workerBefore, serverBefore] = await Promise.all([scrape(metricsUrl), scrape(tally.url)]);
      const ids: string[] = [];
      for (const n of [1, 2, 3]) {
        const res = await fetch(`${tally.url}/api/jobs`, {
          method: "POST",
          headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}`, "content-type": "application/json" },
          body: JSON.stringify({
            kind: "extract",
            url: `https://example.com/worker-metrics-${n}`,
            formats: ["markdown"],
          }),
        });
        expect(res.status).toBe(201);
        ids.push(z.object({ jobId: z.string() }).parse(await res.json()).jobId);
      }
      for (const id of ids)
        expect(
          (await deliver(`${tally.url}/webhooks/geonode/sub-w`, envelope(id), { secret: HOOK_SECRET })).json,
        ).toEqual({ status: "accepted" });
      await waitFor(
        "the worker stored all three",
        async () => (await db().job.count({ where: { id: { in: ids }, outcome: "stored" } })) === 3,
        60_000,
      );
      // The outcome commits before the queue item is marked done: wait for both, or the two scrapes
      // below may read the queue on either side of that last write.
      await waitFor(
        "their queue items done",
        async () => (await db().queueItem.count({ where: { jobId: { in: ids }, state: { not: "done" } } })) === 0,
        60_000,
      );

      const [workerAfter, serverAfter] = await Promise.all([scrape(metricsUrl), scrape(tally.url)]);
      const moved = (before: string, after: string, name: string, labels: Record<string, string> = {}) =>
        metricValue(after, name, labels) - metricValue(before, name, labels);
      const stored = { kind: "extract", outcome: "stored" };
      expect(moved(workerBefore, workerAfter, "tally_job_outcomes_total", stored)).toBe(3);
      expect(moved(workerBefore, workerAfter, "tally_settled_to_stored_seconds_count")).toBe(3);
      expect(
        moved(workerBefore, workerAfter, "tally_platform_calls_total", {
          endpoint: "GET /v1/extract/{job_id}",
          status_class: "2xx",
        }),
      ).toBeGreaterThanOrEqual(3);
      expect(moved(serverBefore, serverAfter, "tally_job_outcomes_total", stored)).toBe(0);
      expect(moved(serverBefore, serverAfter, "tally_deliveries_total", { status: "accepted" })).toBe(3);
      // The submissions were the server's platform calls, the fetches the worker's.
      expect(
        moved(serverBefore, serverAfter, "tally_platform_calls_total", {
          endpoint: "POST /v1/extract",
          status_class: "2xx",
        }),
      ).toBe(3);
      expect(moved(workerBefore, workerAfter, "tally_platform_calls_total", { endpoint: "POST /v1/extract" })).toBe(0);

      // One process label per answer, and the worker's is its own (host:pid:random, with the worker's pid).
      const [workerProcess] = processLabels(workerAfter);
      expect(processLabels(workerAfter)).toHaveLength(1);
      expect(processLabels(serverAfter)).toHaveLength(1);
      expect(workerProcess).not.toBe(processLabels(serverAfter)[0]);
      expect(workerProcess.split(":").at(-2)).toBe(String(worker.pid()));
      expect(workerAfter).toMatch(new RegExp(`^process_cpu_user_seconds_total\\{process="${workerProcess}"\\} `, "m"));
      expect(workerAfter).toMatch(/^nodejs_heap_size_used_bytes\{process="[^"]+"\} /m);
      // Shared state is read from the database: the same in both answers.
      expect(metricValue(workerAfter, "tally_queue_items", { state: "done" })).toBe(
        metricValue(serverAfter, "tally_queue_items", { state: "done" }),
      );
    },
  );

  it(
    "a second worker on the same port stops at start with a clear message and exit code 1",
    { timeout: 120_000 },
    async () => {
      const run = await runToExit(
        process.execPath,
        ["--import", "tsx", "--conditions=react-server", "scripts/worker.ts"],
        workerEnv,
        90_000,
      );
      expect(run.code, run.out).toBe(1);
      expect(run.out).toContain(
        `TALLY_METRICS_PORT=${new URL(metricsUrl).port}: cannot listen on 0.0.0.0:${new URL(metricsUrl).port}: the port is already in use`,
      );
      expect(run.out).not.toMatch(/^\s+at /m); // no stack trace
      expect(run.out).not.toContain("worker started");
    },
  );

  it(
    "a worker without TALLY_METRICS_PORT says its metrics are not exposed and how to expose them",
    { timeout: 120_000 },
    async () => {
      const plain = startWorkerProcess({ ...workerEnv, TALLY_METRICS_PORT: "" });
      try {
        await waitFor("the plain worker started", () => plain.output().includes("worker started"), 90_000).catch(
          (err: Error) => {
            throw new Error(`${err.message}\n${plain.output()}`);
          },
        );
        expect(plain.output()).toMatch(/worker metrics not exposed.*set TALLY_METRICS_PORT/);
        expect(plain.output()).not.toContain("worker metrics on");
      } finally {
        await plain.stop();
      }
    },
  );

  it("closes its listener on SIGTERM as part of the graceful stop", { timeout: 60_000 }, async () => {
    await worker.stop();
    await expect(fetch(`${metricsUrl}/api/health`)).rejects.toThrow();
    expect(worker.output()).toContain("worker stopping");
  });
});
