// Shared set-up for the pipeline tests: a simulator over real HTTP, a fresh database whose config
// points at it, and helpers that drive jobs through the real queue and worker.
import { db } from "@/lib/db";
import { enqueue, createRegistry } from "@/lib/queue";
import { isTerminal, type JobKind } from "@/lib/platform";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { createTestDb } from "@/test/db";
import { EVENT_FOR_KIND } from "../platform/events";
import { processJobItem } from "./process-job";
import { processJobKind } from "../worker/registry";
import { flushApiCalls, resetPlatformClients } from "../platform/shared-client";
import { createWorker } from "../worker/worker";

/** Small result pages so a handful of batch or crawl items spans several pages. */
export const PAGE_SIZE = 3;

export async function setupPipeline(env: Record<string, string> = {}) {
  const sim = await startSim();
  resetPlatformClients();
  const t = await createTestDb({
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_API_RPS: "1000",
    ...env,
  });
  const registry = createRegistry([processJobKind({ resultPageSize: PAGE_SIZE })]);
  const client = sim.client();

  /** What the receiver does for a webhook: one process_job item for the job. */
  const enqueueJob = (jobId: string, kind: JobKind, opts: { dedupe?: boolean } = {}) =>
    enqueue(db(), {
      ...processJobItem({ jobId, eventType: EVENT_FOR_KIND[kind], source: "webhook" }),
      ...(opts.dedupe === false ? { dedupeKey: null } : {}),
    });

  /** Runs the real worker until nothing is due. */
  const drain = async (concurrency = 2) => {
    const worker = createWorker({ registry, concurrency, leaseMs: 10_000, owner: "test" });
    await worker.drain();
  };

  const waitSettled = async (kind: JobKind, jobId: string, timeoutMs = 5000) => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const job = await client.getJob(kind, jobId);
      if (isTerminal(job.status)) return job;
      if (Date.now() > end) throw new Error(`job ${jobId} did not settle`);
      await new Promise((r) => setTimeout(r, 15));
    }
  };

  /** Waits for the platform to settle the job, then queues and processes it. */
  const settleAndProcess = async (kind: JobKind, jobId: string) => {
    await waitSettled(kind, jobId);
    await enqueueJob(jobId, kind);
    await drain();
    return db().job.findUniqueOrThrow({ where: { id: jobId } });
  };

  return {
    sim,
    t,
    registry,
    client,
    enqueueJob,
    drain,
    waitSettled,
    settleAndProcess,
    async close() {
      await flushApiCalls().catch(() => undefined);
      await sim.close();
      await t.cleanup();
    },
  };
}

export type Pipeline = Awaited<ReturnType<typeof setupPipeline>>;

export const events = (jobId: string, type?: string) =>
  db().jobEvent.findMany({ where: { jobId, ...(type ? { type } : {}) }, orderBy: { id: "asc" } });
