// Token caps with two `npm run worker` processes on one database (issue 39: "no submit past a cap, ever,
// also with two workers racing"), on SQLite (one file, two processes) and, through
// vitest.postgres.config.mts, on PostgreSQL. Three capped runs whose every page is blocked at every rung
// (each would cost 4 tokens a URL) are submitted and settled by both workers at once: a run's chunks are
// recorded by one process while the other settles its earlier chunks and releases their reservations. And
// the worker holding a run's submit item is frozen (SIGSTOP) past its lease, so the other takes the item
// over and submits while the frozen one, woken (SIGCONT), finishes the handler it was in: two submitters of
// one run in two processes. Sampled all along, and at the end: charged + reserved within each cap, and the
// URLs sent in chunks never more than the cap allows.
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { processJobItem } from "@/lib/jobs/process-job";
import { isTerminal } from "@/lib/platform";
import { enqueue } from "@/lib/queue";
import { createRun, getRun, parseValues, RUN_SUBMIT } from "@/lib/runs";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { startWorkerProcess, type WorkerProc } from "../scripts/chaos/processes";
import { createTestDb, type TestDb } from "./db";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CAP = 50;

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;
const workers: WorkerProc[] = [];
const output = () => workers.map((w, i) => `worker ${i + 1} (pid ${w.pid()}):\n${w.output()}`).join("\n---\n");

beforeAll(async () => {
  sim = await startSim();
  await sim.control("/_sim/config", {
    blockPageRate: 1,
    residentialUnblockShare: 0,
    failureRate: 0,
    itemFailureRate: 0,
    jobDurationMs: [20, 80],
  });
  t = await createTestDb({ SCRAPER_API_BASE_URL: sim.url, GEONODE_SCRAPER_API_KEY: API_KEY });
  const env = {
    DATABASE_URL: t.url,
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_OPERATOR_PASSWORD: "two workers operator password",
    TALLY_SESSION_SECRET: "two-workers-session-secret-0123456789abcdef0123",
    TALLY_SCHEDULER: "off",
    TALLY_DELIVERY_MODE: "polling",
    TALLY_POLL_INITIAL_MS: "50",
    TALLY_POLL_MAX_MS: "200",
    TALLY_LEASE_SECONDS: "5",
    TALLY_WORKER_CONCURRENCY: "3",
    TALLY_API_RPS: "1000",
    TALLY_LOG_LEVEL: "info",
  };
  workers.push(startWorkerProcess(env), startWorkerProcess(env));
  for (let i = 0; i < 600 && !workers.every((w) => w.output().includes("worker started")); i++) await sleep(200);
  expect(
    workers.every((w) => w.output().includes("worker started")),
    output(),
  ).toBe(true);
}, 180_000);

afterAll(async () => {
  for (const w of workers) {
    const pid = w.pid();
    if (pid) process.kill(pid, "SIGCONT");
  }
  await Promise.all(workers.map((w) => w.stop().catch(() => undefined)));
  await sim?.close();
  await t?.cleanup();
});

/** On SQLite, whether a process other than this one holds the database's one write lock now (a worker
 *  stopped inside a write holds it: nobody else can claim until it is woken). Always false on PostgreSQL. */
function writeLockHeld(): boolean {
  if (!t.url.startsWith("file:")) return false;
  const probe = new Database(t.file, { timeout: 300 });
  try {
    probe.exec("BEGIN IMMEDIATE");
    probe.exec("ROLLBACK");
    return false;
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith("SQLITE_BUSY")) return true;
    throw err;
  } finally {
    probe.close();
  }
}

async function checkCaps(runIds: string[]): Promise<void> {
  for (const id of runIds) {
    const r = await db().run.findUniqueOrThrow({ where: { id } });
    const chunks = await db().runChunk.findMany({ where: { runId: id }, select: { size: true } });
    expect(r.tokensCharged + r.tokensReserved, `run ${id} charged + reserved`).toBeLessThanOrEqual(CAP);
    expect(
      chunks.reduce((n, c) => n + c.size, 0),
      `run ${id}: URLs sent`,
    ).toBeLessThanOrEqual(CAP);
  }
}

describe("caps with two worker processes racing", () => {
  it(
    "never sends a run's URLs past its cap, also when a frozen worker's submit item is taken over",
    { timeout: 300_000 },
    async () => {
      const runIds: string[] = [];
      for (let r = 0; r < 3; r++) {
        const urls = Array.from({ length: 40 }, (_, i) => `https://race${r}-${i % 8}.example/p/${i}`);
        runIds.push((await createRun(parseValues(urls), { batchSize: 4, maxTokens: CAP }, "test")).id);
      }
      const holders = new Set<string>();
      let froze = false;
      let freezes = 0;
      let takenOver = false;
      const announced = new Set<string>();
      const deadline = Date.now() + 180_000;
      for (;;) {
        await checkCaps(runIds);
        const leased = await db().queueItem.findMany({
          where: { kind: RUN_SUBMIT, state: "leased" },
          select: { id: true, leaseOwner: true },
        });
        for (const l of leased) if (l.leaseOwner) holders.add(l.leaseOwner.split(":").at(-3) ?? "");
        // Once, a worker holding a run's submit item stops dead past its lease; the other takes the item over.
        const item = leased[0];
        const held = item?.leaseOwner;
        // Frozen inside a write (SQLite's one writer), the other worker cannot claim anything until it is
        // woken: such a freeze is undone at once and tried again on a later item. A freeze counts (five at
        // most) only if the item is still that worker's once it is stopped (on a loaded machine it may
        // have finished the item between the read above and the signal: nothing is left to take over).
        if (!takenOver && freezes < 5 && item && held) {
          const pid = Number(held.split(":").at(-3));
          if (workers.some((w) => w.pid() === pid)) {
            process.kill(pid, "SIGSTOP");
            const still = await db().queueItem.findUnique({
              where: { id: item.id },
              select: { state: true, leaseOwner: true },
            });
            // Stopped inside a write, it would hold SQLite's write lock through its lease and past it: the
            // other worker could not take over until it is woken. Such a freeze is not the case under test:
            // it is woken at once and tried again later, not counted.
            const frozenHolding = still?.state === "leased" && still.leaseOwner === held && !writeLockHeld();
            if (frozenHolding) {
              froze = true;
              freezes++;
            }
            // Its lease runs out (5 s) and the other worker claims the run's submit item and submits.
            for (let i = 0; frozenHolding && i < 200 && !takenOver; i++) {
              await sleep(100);
              const now = await db().queueItem.findUnique({ where: { id: item.id }, select: { leaseOwner: true } });
              takenOver =
                now?.leaseOwner !== null && now?.leaseOwner !== undefined && !now.leaseOwner.includes(`:${pid}:`);
            }
            await checkCaps(runIds);
            process.kill(pid, "SIGCONT");
          }
        }
        // The platform's webhook for each finished chunk, as the receiver enqueues it (once per job: dedupe).
        const open = await db().runChunk.findMany({
          where: { runId: { in: runIds }, state: "submitted", jobId: { not: null } },
          select: { jobId: true },
        });
        for (const ch of open)
          if (
            ch.jobId &&
            !announced.has(ch.jobId) &&
            isTerminal((await sim.client().getJob("batch", ch.jobId)).status)
          ) {
            announced.add(ch.jobId);
            await enqueue(db(), processJobItem({ jobId: ch.jobId, kind: "batch", source: "webhook" }));
          }
        const states = await db().run.findMany({ where: { id: { in: runIds } }, select: { state: true } });
        if (states.every((s) => s.state === "completed")) break;
        if (Date.now() > deadline) {
          const runs = await db().run.findMany({ where: { id: { in: runIds } } });
          const items = await db().queueItem.groupBy({ by: ["kind", "state"], _count: { _all: true } });
          const chunks = await db().runChunk.groupBy({ by: ["state"], _count: { _all: true } });
          throw new Error(
            `runs did not complete: ${JSON.stringify(runs.map((r) => [r.state, r.pending, r.submitted, r.suspect, r.failed, r.tokensCharged, r.tokensReserved, r.capReason]))} ${JSON.stringify(items)} ${JSON.stringify(chunks)}\n${output().slice(-3000)}`,
          );
        }
        await sleep(50);
      }
      await checkCaps(runIds);
      expect(froze, "a worker was frozen while holding a submit item").toBe(true);
      expect(takenOver, "the other worker took over the frozen worker's run submit item").toBe(true);
      // Both processes held run submit items at some point.
      expect(holders.size, `lease owners' pids: ${[...holders].join(", ")}`).toBe(2);
      for (const id of runIds) {
        const run = await getRun(id);
        expect(run.tokens.capReason).toMatch(/maxTokens 50 reached/);
        expect(run.tokens.reserved).toBe(0);
        const c = run.counts;
        expect(c.pending + c.submitted + c.stored + c.retrying + c.suspect + c.failed).toBe(run.total);
      }
    },
  );
});
