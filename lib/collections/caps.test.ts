// A collection's monthly cap reserved atomically (issue 50 item 2), in process with the real simulator over
// HTTP, the real queue and worker, on SQLite (and PostgreSQL through vitest.postgres.config.mts):
// - two runs of one collection active at once (a retried run beside a new one) share the month: each chunk
//   reserves against it, so their charged + reserved never passes it, and the run left without room says
//   which cap and by how much;
// - a run retried after another spent the month gets what the month has left, not its old cap;
// - a queued tick racing a manual start (both waiting on the collection's row, held by another connection)
//   starts one run, not two.
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, dialect } from "@/lib/db";
import { processJobItem } from "@/lib/jobs/process-job";
import { isTerminal } from "@/lib/platform";
import { flushApiCalls, resetPlatformClients } from "@/lib/platform/shared-client";
import { createRegistry, enqueue } from "@/lib/queue";
import { cancelRun, getRun, parseValues, retryFailed, RUN_SUBMIT, type RunView } from "@/lib/runs";
import { baseConfig } from "@/lib/simulator/config";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { classifyRunKind, processJobKind, runSubmitKind } from "@/lib/worker/registry";
import { createWorker } from "@/lib/worker/worker";
import { createTestDb, type TestDb } from "@/test/db";
import { createCollection, runCollectionNow, runDueCollections } from "./index";

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;
const registry = createRegistry([processJobKind(), runSubmitKind(), classifyRunKind()]);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

beforeAll(async () => {
  sim = await startSim();
  resetPlatformClients();
  t = await createTestDb({ SCRAPER_API_BASE_URL: sim.url, GEONODE_SCRAPER_API_KEY: API_KEY, TALLY_API_RPS: "1000" });
}, 30_000);
afterAll(async () => {
  await flushApiCalls().catch(() => undefined);
  await sim?.close();
  await t?.cleanup();
});
beforeEach(() => {
  sim.sim.setConfig({ ...baseConfig, seed: 7, jobDurationMs: [10, 40], hostileShare: 0 });
});

const drain = () => createWorker({ registry, concurrency: 2, leaseMs: 10_000, owner: "test" }).drain();

/** Charged + reserved by the collection's runs of this month, as the cap counts them. */
async function monthUsed(collectionId: string): Promise<number> {
  const agg = await db().run.aggregate({
    where: { collectionId },
    _sum: { tokensCharged: true, tokensReserved: true },
  });
  return (agg._sum.tokensCharged ?? 0) + (agg._sum.tokensReserved ?? 0);
}

/** Works the queue (and the platform's webhooks) until every run is final; the month sampled after each step. */
async function runAllToEnd(runIds: string[], collectionId: string, cap: number): Promise<RunView[]> {
  for (let round = 0; round < 60; round++) {
    await drain();
    expect(await monthUsed(collectionId)).toBeLessThanOrEqual(cap);
    const runs = await Promise.all(runIds.map((id) => getRun(id)));
    if (runs.every((r) => r.state === "completed" || r.state === "cancelled")) return runs;
    const open = await db().runChunk.findMany({
      where: { runId: { in: runIds }, state: "submitted" },
      select: { jobId: true },
    });
    for (const ch of open) {
      if (!ch.jobId) continue;
      for (let i = 0; i < 400; i++) {
        if (isTerminal((await sim.client().getJob("batch", ch.jobId)).status)) break;
        await sleep(10);
      }
      await enqueue(db(), processJobItem({ jobId: ch.jobId, kind: "batch", source: "webhook" }));
    }
    await db().queueItem.updateMany({ where: { kind: RUN_SUBMIT, state: "ready" }, data: { availableAt: new Date() } });
  }
  throw new Error(`runs ${runIds.join(", ")} did not finish`);
}

const urlsOf = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `https://${tag}${i % 5}.example/p/${i}`);

/** A collection of 10 URLs with a monthly cap of 10, and a run of it cancelled before it sent anything. */
async function collectionWithCancelledRun(tag: string) {
  const c = await createCollection({ name: tag, list: parseValues(urlsOf(tag, 10)), monthlyMaxTokens: 10 }, "test");
  const first = (await runCollectionNow(c.id, "test")).runId;
  await cancelRun(first, "test");
  return { c, first };
}

describe("a collection's monthly cap, shared by its runs", () => {
  it("two runs of one collection active at once never reserve past the month; the one left without room says which cap and by how much", async () => {
    const { c, first } = await collectionWithCancelledRun("shared");
    // A new run, then the cancelled one retried before the new one sent anything: both active, each capped at 10.
    const second = (await runCollectionNow(c.id, "test")).runId;
    const retried = await retryFailed(first, "test");
    expect(retried.state).not.toBe("completed");
    const runs = await runAllToEnd([first, second], c.id, 10);
    expect(runs.reduce((n, r) => n + r.tokens.charged, 0)).toBeLessThanOrEqual(10);
    const sent = await db().runChunk.aggregate({ where: { runId: { in: [first, second] } }, _sum: { size: true } });
    expect(sent._sum.size ?? 0).toBeLessThanOrEqual(10);
    // One run took the month; the other stopped at it, saying so.
    const stopped = runs.filter((r) => r.tokens.capReason !== null);
    expect(stopped).toHaveLength(1);
    const hit = stopped[0]?.tokens;
    expect(hit?.capReason).toMatch(/the collection's monthly cap of 10 tokens reached/);
    expect(hit?.capHit).toEqual({ cap: "collection_month", limit: 10, used: 10, wanted: 10, over: 10 });
    expect(runs.every((r) => r.tokens.reserved === 0)).toBe(true);
  });

  it("a run retried after the month was spent gets what is left, not the cap it started with", async () => {
    const { c, first } = await collectionWithCancelledRun("stale");
    const second = (await runCollectionNow(c.id, "test")).runId;
    const [spent] = await runAllToEnd([second], c.id, 10);
    expect(spent?.tokens.charged).toBe(10);
    expect((await getRun(first)).tokens.max).toBe(10);
    const retried = await retryFailed(first, "test");
    expect(retried.tokens.max).toBe(0);
    const [again] = await runAllToEnd([first], c.id, 10);
    expect(again?.tokens.charged).toBe(0);
    expect(again?.tokens.capReason).toMatch(/monthly cap of 10 tokens leaves 0/);
    expect(again?.tokens.capHit).toMatchObject({ limit: 0, used: 0, wanted: 10, over: 10 });
    expect(await monthUsed(c.id)).toBe(10);
  });

  it("a queued tick racing a manual start starts one run, not two", async () => {
    const c = await createCollection(
      { name: "race", list: parseValues(urlsOf("race", 10)), monthlyMaxTokens: 10, overlap: "queue" },
      "test",
    );
    // A tick waits for a run that has just ended.
    await db().collection.update({ where: { id: c.id }, data: { queuedFor: new Date(Date.now() - 60_000) } });
    // Another connection holds the collection's row (PostgreSQL) or the write lock (SQLite), so both
    // starts queue behind it: the manual start first, then the pass that fires the queued tick.
    const release = await holdCollection(c.id);
    const manual = runCollectionNow(c.id, "test").then(
      (r) => r.runId,
      (e: unknown) => e,
    );
    await waitingOnLocks(1);
    const pass = runDueCollections();
    await waitingOnLocks(2);
    await release();
    const [m, ticks] = await Promise.all([manual, pass]);
    const active = await db().run.findMany({ where: { collectionId: c.id, state: "active" }, select: { id: true } });
    expect(active, `manual start: ${String(m)}; ticks: ${JSON.stringify(ticks)}`).toHaveLength(1);
    expect(await db().run.count({ where: { collectionId: c.id } })).toBe(1);
    await runAllToEnd(
      active.map((a) => a.id),
      c.id,
      10,
    );
  });
});

/** Holds the collection's row lock (PostgreSQL) or SQLite's write lock from a connection of its own. */
async function holdCollection(id: string): Promise<() => Promise<void>> {
  if (dialect() === "postgres") {
    const client = new pg.Client({ connectionString: t.url });
    await client.connect();
    await client.query("BEGIN");
    await client.query(`SELECT 1 FROM "Collection" WHERE "id" = $1 FOR UPDATE`, [id]);
    return async () => {
      await client.query("COMMIT");
      await client.end();
    };
  }
  const conn = new Database(t.file);
  conn.exec("BEGIN IMMEDIATE");
  return () => {
    conn.exec("COMMIT");
    conn.close();
    return Promise.resolve();
  };
}

/** PostgreSQL: until `n` of the test database's sessions wait on a lock. SQLite: a moment (no view of waiters). */
async function waitingOnLocks(n: number): Promise<void> {
  if (dialect() !== "postgres") return sleep(300);
  for (let i = 0; i < 200; i++) {
    const rows = await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if ((rows[0]?.n ?? 0) >= n) return;
    await sleep(25);
  }
  throw new Error(`fewer than ${n} sessions waiting on a lock`);
}
