// A backlog must not be listed again and again (issue 28), against the simulator over real HTTP and a
// real database (SQLite, and PostgreSQL through vitest.postgres.config.mts): settled jobs Tally never
// heard of are enqueued by the first scheduled reconciliation, and the second one, with all of them
// still in the queue, reads only the window past the watermark (a job in the durable queue is
// accounted for). While that backlog waits, a job submitted through Tally is claimed before any
// backlog item and stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { processJobItem } from "@/lib/jobs/process-job";
import { flushApiCalls, resetPlatformClients } from "@/lib/platform/shared-client";
import { claim, enqueue, PRIORITY_BACKLOG, PRIORITY_FRESH, release, runItem } from "@/lib/queue";
import { startReconcile } from "@/lib/safety-nets/reconcile";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { submitJob } from "@/lib/jobs/submit";
import { workerRegistry } from "@/lib/worker/registry";
import { createTestDb, type TestDb } from "./db";

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;

beforeAll(async () => {
  sim = await startSim({ config: { retainJobs: 10_000 } });
  resetPlatformClients();
  t = await createTestDb({
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_API_RPS: "1000",
    TALLY_PUBLIC_URL: "http://127.0.0.1:9",
  });
});
afterAll(async () => {
  await flushApiCalls().catch(() => undefined);
  await sim?.close();
  await t?.cleanup();
});

type Summary = { scope: string; enqueued: number; byKind: Record<string, { scope: string; pages: number }> };

async function scheduledRun(): Promise<Summary> {
  const run = await (await startReconcile({}, "scheduler")).done;
  expect(run.error).toBeNull();
  return run.summary as Summary;
}

describe("a backlog of unknown settled jobs", () => {
  it("is listed once: the second scheduled run reads at most 3 pages per kind while it is still queued", async () => {
    // History Tally never heard of, over the last day: 500 jobs of each kind (5 list pages each).
    const seeded = (["extract", "batch", "crawl"] as const).flatMap((kind) =>
      sim.sim.seedJobs({ count: 500, kind, status: "completed", ageSeconds: 3600, spacingSeconds: 150 }),
    );
    const first = await scheduledRun();
    for (const kind of ["extract", "batch", "crawl"])
      expect(first.byKind[kind]).toMatchObject({ scope: "full", pages: 5 });
    expect(first.enqueued).toBe(seeded.length);
    const queued = await db().queueItem.count({ where: { state: "ready", priority: PRIORITY_BACKLOG } });
    expect(queued).toBe(seeded.length);

    // Nothing drained yet: every one of them is still only in the queue.
    const second = await scheduledRun();
    for (const kind of ["extract", "batch", "crawl"]) {
      expect(second.byKind[kind]?.scope).toBe("recent");
      expect(second.byKind[kind]?.pages).toBeLessThanOrEqual(3);
    }
    expect(second.enqueued).toBe(0);
    expect(await db().queueItem.count({ where: { state: "ready" } })).toBe(seeded.length);
  }, 60_000);

  it("waits behind fresh work: a new job's fetch is claimed before any backlog item, and stored while the backlog waits", async () => {
    // Submitted through Tally (POST /api/jobs), its webhook received: the receiver's item.
    const { jobId: fresh } = await submitJob({ kind: "extract", url: "https://example.com/fresh-today" });
    await db().$transaction((tx) => enqueue(tx, processJobItem({ jobId: fresh, source: "webhook" })));
    // One claim of one item (a worker with one free slot): the fresh job, though 1,600 are older.
    const [first] = await claim({ owner: "test", limit: 1, leaseMs: 10_000 });
    expect(first?.jobId).toBe(fresh);
    expect(await db().queueItem.findUniqueOrThrow({ where: { id: first!.id } })).toMatchObject({
      priority: PRIORITY_FRESH,
    });
    await release(first!);
    // The backlog in its own order behind it: oldest first.
    const next = await claim({ owner: "test", limit: 3, leaseMs: 10_000 });
    const rows = await db().queueItem.findMany({ where: { id: { in: next.map((n) => n.id) } } });
    expect(rows.every((r) => r.priority === PRIORITY_BACKLOG || r.jobId === fresh)).toBe(true);
    for (const item of next) await release(item);

    // The worker's next turn takes it first and stores it, 1,500 backlog items still waiting.
    const [taken] = await claim({ owner: "test", limit: 1, leaseMs: 10_000 });
    expect(taken?.jobId).toBe(fresh);
    // The job settles on the platform in under a second; its fetch stores it.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await runItem(workerRegistry, taken!, { timeoutMs: 30_000 })).toBe("acked");
    expect((await db().job.findUniqueOrThrow({ where: { id: fresh } })).outcome).toBe("stored");
    expect(await db().queueItem.count({ where: { state: "ready", priority: PRIORITY_BACKLOG } })).toBe(1500);
  }, 120_000);
});
