import "server-only";
import { getConfig } from "../config";
import { db } from "../db";
import { launchRun, RunFailed, type Json, type Launched, type RunContext } from "../operations";
import { isTerminal, PlatformNotFound, type JobKind, type JobListFilters, type JobStatus, type PlatformClient } from "../platform";
import { checkSubscriptionDrift } from "./drift";
import { addFeed, emptyFeed, feedQueue, type Candidate } from "./feed";
import { getPlatformClient } from "../platform/shared-client";

// Reconciliation lists the platform's jobs of every kind through every page and enqueues each
// settled one, old enough for its webhook to have come, whose OUTCOME is missing here: a dropped or
// early webhook, a crashed worker, a job Tally never heard of. One outcome query per page.

export type ReconcileParams = { olderThanSeconds?: number; since?: Date };

type Listed = { jobId: string; status: JobStatus; createdAt: string; completedAt: string | null; url: string | null; executionMs: number | null };
type ListedPage = { page: number; pageCount: number; items: Listed[] };

const KINDS: readonly JobKind[] = ["extract", "batch", "crawl"];

async function* listJobs(client: PlatformClient, kind: JobKind, filters: JobListFilters): AsyncGenerator<ListedPage> {
  const base = (j: { job_id: string; status: JobStatus; created_at: string; completed_at?: string | null }) => ({
    jobId: j.job_id,
    status: j.status,
    createdAt: j.created_at,
    completedAt: j.completed_at ?? null,
  });
  if (kind === "extract") {
    for await (const p of client.listExtractJobs(filters)) {
      // The contract's extract summary has no completed_at; use it when the platform sends one anyway.
      const completedAt = (j: Record<string, unknown>) => (typeof j.completed_at === "string" ? j.completed_at : null);
      yield { ...p, items: p.items.map((j) => ({ ...base({ ...j, completed_at: completedAt(j) }), url: j.url, executionMs: j.execution_time ?? null })) };
    }
  } else if (kind === "batch") {
    for await (const p of client.listBatchJobs(filters)) yield { ...p, items: p.items.map((j) => ({ ...base(j), url: null, executionMs: null })) };
  } else {
    for await (const p of client.listCrawlJobs(filters)) yield { ...p, items: p.items.map((j) => ({ ...base(j), url: j.url, executionMs: null })) };
  }
}

/** When the job settled: completed_at where the list has it, else created_at plus its run time (never in the future). */
function settledAt(j: Listed, now: number): number {
  if (j.completedAt) return Date.parse(j.completedAt);
  return Math.min(now, Date.parse(j.createdAt) + (j.executionMs ?? 0));
}

export function startReconcile(params: ReconcileParams, startedBy: string): Promise<Launched> {
  const stored: Json = { olderThanSeconds: params.olderThanSeconds ?? null, since: params.since?.toISOString() ?? null };
  return launchRun({ kind: "reconcile", lockKey: "reconcile", params: stored, startedBy }, (ctx) => reconcile(ctx, params));
}

async function reconcile(ctx: RunContext, params: ReconcileParams): Promise<Json> {
  const config = getConfig();
  const olderThanMs = (params.olderThanSeconds ?? config.TALLY_RECONCILE_THRESHOLD_SECONDS) * 1000;
  const client = getPlatformClient();
  const filters: JobListFilters = params.since ? { start_date: params.since } : {};
  const counts = { listed: 0, alreadyDone: 0, enqueued: 0, stillRunning: 0, alreadyQueued: 0, tooRecent: 0, created: 0, pages: 0 };
  const byKind: Record<string, { listed: number; enqueued: number }> = {};
  const unavailable: string[] = [];
  let fed = emptyFeed();
  const summary = (): Json => ({ ...counts, byKind, unavailable, enqueuedIds: fed.enqueuedIds });

  for (const kind of KINDS) {
    const k = (byKind[kind] = { listed: 0, enqueued: 0 });
    try {
      for await (const page of listJobs(client, kind, filters)) {
        const now = Date.now();
        const candidates: Candidate[] = [];
        for (const j of page.items) {
          if (!isTerminal(j.status)) counts.stillRunning++;
          else if (now - settledAt(j, now) < olderThanMs) counts.tooRecent++;
          else {
            const createdAt = new Date(j.createdAt);
            candidates.push({ jobId: j.jobId, kind, platformStatus: j.status, url: j.url, platformCreatedAt: createdAt, settledAt: new Date(settledAt(j, now)) });
          }
        }
        const r = await feedQueue(candidates, "reconcile", ctx.runId);
        fed = addFeed(fed, r);
        counts.listed += page.items.length;
        counts.pages++;
        counts.alreadyDone += r.alreadyDone;
        counts.alreadyQueued += r.alreadyQueued;
        counts.enqueued += r.enqueued;
        counts.created += r.created;
        k.listed += page.items.length;
        k.enqueued += r.enqueued;
        await ctx.progress({ ...counts, kind, page: page.page, pageCount: page.pageCount });
      }
    } catch (err) {
      // The docs mark parts of the API "coming soon": a missing list is reported, not fatal.
      if (err instanceof PlatformNotFound) unavailable.push(kind);
      else throw new RunFailed(`listing ${kind} jobs failed: ${err instanceof Error ? err.message : String(err)}`, summary());
    }
  }

  const stalePending = await findStalePending(config.TALLY_PENDING_ALERT_MINUTES);
  const subscriptions = await checkSubscriptionDrift(client);
  return { ...summary(), stalePending, subscriptions };
}

/** Local jobs still without an outcome long after they were created: worth a look by a person. */
async function findStalePending(minutes: number): Promise<Json> {
  const where = { outcome: "pending", createdAt: { lt: new Date(Date.now() - minutes * 60_000) } };
  const [count, oldest] = await Promise.all([
    db().job.count({ where }),
    db().job.findMany({ where, orderBy: { createdAt: "asc" }, take: 20, select: { id: true } }),
  ]);
  return { olderThanMinutes: minutes, count, ids: oldest.map((j) => j.id) };
}
