import "server-only";
import { getConfig } from "../config";
import { db } from "../db";
import { launchRun, RunFailed, type Json, type Launched, type RunContext } from "../operations";
import { isTerminal, PlatformNotFound, type JobListFilters } from "../platform";
import { checkSubscriptionDrift } from "./drift";
import { addFeed, emptyFeed, feedQueue, type Candidate } from "./feed";
import { getPlatformClient, withPurpose } from "../platform";
import { KINDS, listJobs, settledAt } from "./list-jobs";
import { OVERLAP_MS, readWatermarks, saveWatermark, WindowTracker, type Watermark } from "./watermark";

// Reconciliation lists the platform's jobs of every kind and enqueues each settled one, old enough for
// its webhook to have come, whose OUTCOME is missing here: a dropped or early webhook, a crashed
// worker, a job Tally never heard of. One outcome query per page. Its cost follows new work, not
// history: a "recent" run lists only jobs created since the kind's watermark minus an overlap
// (`start_date`), and moves the watermark only past jobs that are all settled and accounted for (an
// outcome, or an item in the durable queue, which keeps it until it has one); a
// "full" run lists everything, at most every TALLY_RECONCILE_FULL_SCAN_HOURS or when asked.

export type ReconcileScope = "recent" | "full";
/** `scope` absent: the scheduler's choice (full when due, else recent). */
export type ReconcileParams = { olderThanSeconds?: number; since?: Date; scope?: ReconcileScope };
type KindScope = ReconcileScope | "since";
type KindReport = {
  scope: KindScope;
  from: string | null;
  to: string;
  listed: number;
  enqueued: number;
  pages: number;
  watermark: string | null;
};

export function startReconcile(params: ReconcileParams, startedBy: string): Promise<Launched> {
  const stored: Json = {
    olderThanSeconds: params.olderThanSeconds ?? null,
    since: params.since?.toISOString() ?? null,
    scope: params.scope ?? "auto",
  };
  return launchRun({ kind: "reconcile", lockKey: "reconcile", params: stored, startedBy }, (ctx) =>
    withPurpose("reconcile", () => reconcile(ctx, params)),
  );
}

/** Full when asked, when the kind has no watermark yet, or when its last full scan is older than the period. */
function scopeFor(requested: ReconcileParams["scope"], mark: Watermark, now: number, fullScanMs: number): KindScope {
  if (requested === "full" || !mark.createdFrom) return "full";
  if (requested === "recent") return "recent";
  return !mark.lastFullScanAt || now - mark.lastFullScanAt.getTime() >= fullScanMs ? "full" : "recent";
}

async function reconcile(ctx: RunContext, params: ReconcileParams): Promise<Json> {
  const config = getConfig();
  const olderThanMs = (params.olderThanSeconds ?? config.TALLY_RECONCILE_THRESHOLD_SECONDS) * 1000;
  const fullScanMs = config.TALLY_RECONCILE_FULL_SCAN_HOURS * 3_600_000;
  const client = getPlatformClient();
  const startedAt = Date.now();
  const marks = await readWatermarks(KINDS);
  const counts = {
    listed: 0,
    pages: 0,
    alreadyDone: 0,
    enqueued: 0,
    stillRunning: 0,
    alreadyQueued: 0,
    tooRecent: 0,
    created: 0,
  };
  const byKind: Record<string, KindReport> = {};
  const unavailable: string[] = [];
  let fed = emptyFeed();
  const scopes = new Set<string>();
  const summary = (): Json => ({
    scope: [...scopes].join("+") || "none",
    ...counts,
    byKind,
    unavailable,
    enqueuedIds: fed.enqueuedIds,
  });

  for (const kind of KINDS) {
    const mark = marks.get(kind) ?? { kind, createdFrom: null, lastFullScanAt: null };
    // An explicit `since` is the operator's own window: it reads from there and moves no watermark.
    const scope: KindScope = params.since ? "since" : scopeFor(params.scope, mark, startedAt, fullScanMs);
    const from =
      scope === "since"
        ? params.since!
        : scope === "recent"
          ? new Date(mark.createdFrom!.getTime() - OVERLAP_MS)
          : null;
    const filters: JobListFilters = from ? { start_date: from } : {};
    const k: KindReport = (byKind[kind] = {
      scope,
      from: from?.toISOString() ?? null,
      to: new Date(startedAt).toISOString(),
      listed: 0,
      enqueued: 0,
      pages: 0,
      watermark: mark.createdFrom?.toISOString() ?? null,
    });
    scopes.add(scope);
    // Stuck jobs older than the full-scan period stop holding the watermark back: the full scan covers them.
    const window = new WindowTracker(startedAt - Math.max(fullScanMs, 3_600_000));
    try {
      for await (const page of listJobs(client, kind, filters)) {
        const now = Date.now();
        const candidates: Candidate[] = [];
        const createdOf = new Map<string, number>();
        for (const j of page.items) {
          const created = Date.parse(j.createdAt);
          window.seen(created);
          if (!isTerminal(j.status)) {
            counts.stillRunning++;
            window.notDone(created);
          } else if (now - settledAt(j, now) < olderThanMs) {
            counts.tooRecent++;
            window.notDone(created);
          } else {
            createdOf.set(j.jobId, created);
            candidates.push({
              jobId: j.jobId,
              kind,
              platformStatus: j.status,
              url: j.url,
              platformCreatedAt: new Date(created),
              settledAt: new Date(settledAt(j, now)),
            });
          }
        }
        const r = await feedQueue(candidates, "reconcile", ctx.runId);
        // Queued jobs do not hold the watermark: the durable queue keeps them until they have an outcome.
        for (const id of r.unqueuedIds) window.notDone(createdOf.get(id) ?? now);
        fed = addFeed(fed, r);
        counts.listed += page.items.length;
        counts.pages++;
        counts.alreadyDone += r.alreadyDone;
        counts.alreadyQueued += r.alreadyQueued;
        counts.enqueued += r.enqueued;
        counts.created += r.created;
        k.listed += page.items.length;
        k.enqueued += r.enqueued;
        k.pages++;
        await ctx.progress({ ...counts, kind, scope, page: page.page, pageCount: page.pageCount });
      }
      if (scope !== "since") {
        // A full scan that saw no job at all: every job is younger than its start (less the overlap).
        const next = window.next(mark.createdFrom) ?? (scope === "full" ? new Date(startedAt) : null);
        await saveWatermark(kind, next, scope === "full" ? new Date(startedAt) : null);
        k.watermark = next?.toISOString() ?? null;
      }
    } catch (err) {
      // The docs mark parts of the API "coming soon": a missing list is reported, not fatal.
      if (err instanceof PlatformNotFound) unavailable.push(kind);
      else
        throw new RunFailed(
          `listing ${kind} jobs failed: ${err instanceof Error ? err.message : String(err)}`,
          summary(),
        );
    }
  }

  const stalePending = await findStalePending(config.TALLY_PENDING_ALERT_MINUTES);
  const subscriptions = await withPurpose("drift check", () => checkSubscriptionDrift(client));
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
