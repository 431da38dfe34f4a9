import "server-only";
import { EVENT_FOR_KIND } from "../platform";
import { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import { jobDedupeKey, processJobItem } from "../jobs";
import { enqueueMany } from "../queue";
import { inSpan } from "../tracing";
import type { JobKind } from "../platform";

// The safety nets' one way into the pipeline: given candidate jobs, find (set-based, two queries
// for the whole batch) which have no outcome and no live queue item, and in one transaction create
// the Job rows Tally never had, their receipts and their process_job items. The handler does the rest.

export type FeedSource = "replay" | "reconcile" | "poll";

export type Candidate = {
  jobId: string;
  kind: JobKind;
  platformStatus?: string | null;
  url?: string | null;
  platformCreatedAt?: Date | null;
  settledAt?: Date | null;
  deliveryId?: string | null;
  subscriptionId?: string | null;
};

export type FeedResult = {
  alreadyDone: number;
  alreadyQueued: number;
  enqueued: number;
  created: number;
  enqueuedIds: string[];
};

export const emptyFeed = (): FeedResult => ({
  alreadyDone: 0,
  alreadyQueued: 0,
  enqueued: 0,
  created: 0,
  enqueuedIds: [],
});

export function addFeed(a: FeedResult, b: FeedResult, keepIds = 500): FeedResult {
  return {
    alreadyDone: a.alreadyDone + b.alreadyDone,
    alreadyQueued: a.alreadyQueued + b.alreadyQueued,
    enqueued: a.enqueued + b.enqueued,
    created: a.created + b.created,
    enqueuedIds: [...a.enqueuedIds, ...b.enqueuedIds].slice(0, keepIds),
  };
}

/** Enqueues every candidate whose outcome is missing; at most a page (≈100) per call. `unqueuedIds`: the
 * candidates with no outcome that are not in the durable queue either after this call, which a watermark
 * must not pass. A candidate in the queue is accounted for: the queue keeps it until it has an outcome
 * or a dead letter (issue 28: holding the watermark for queued jobs re-listed a whole backlog each run). */
export function feedQueue(
  candidates: Candidate[],
  source: FeedSource,
  runId: string | null,
): Promise<FeedResult & { unqueuedIds: string[] }> {
  // With tracing on, a span per page fed; each job queued starts a trace of its own linked to it (a
  // reconciliation of 30,000 jobs is 30,000 traces, not one that never ends).
  return inSpan(
    `feed ${source}`,
    { attributes: { "tally.receipt.source": source, "tally.feed.candidates": candidates.length } },
    async (span) => {
      const fed = await feed(candidates, source, runId);
      span?.setAttribute("tally.feed.enqueued", fed.enqueued);
      return fed;
    },
  );
}

async function feed(
  candidates: Candidate[],
  source: FeedSource,
  runId: string | null,
): Promise<FeedResult & { unqueuedIds: string[] }> {
  const byId = new Map(candidates.map((c) => [c.jobId, c]));
  if (byId.size === 0) return { ...emptyFeed(), unqueuedIds: [] };
  const ids = [...byId.keys()];
  const known = await db().job.findMany({ where: { id: { in: ids } }, select: { id: true, outcome: true } });
  const outcome = new Map(known.map((j) => [j.id, j.outcome]));
  // Receipt is not outcome: only a recorded outcome means done.
  const pending = ids.filter((id) => (outcome.get(id) ?? "pending") === "pending");
  const live = await db().queueItem.findMany({
    where: { dedupeKey: { in: pending.map(jobDedupeKey) } },
    select: { jobId: true },
  });
  const queued = new Set(live.map((q) => q.jobId));
  const todo = pending.map((id) => byId.get(id)).filter((c): c is Candidate => c !== undefined && !queued.has(c.jobId));
  const unknown = todo.filter((c) => !outcome.has(c.jobId));

  const enqueued =
    todo.length === 0
      ? 0
      : await db().$transaction(async (tx) => {
          const now = new Date();
          if (unknown.length > 0) {
            await tx.$executeRaw`
        INSERT INTO "Job" ("id", "kind", "url", "platformStatus", "origin", "platformCreatedAt", "settledAt", "createdAt", "updatedAt")
        VALUES ${Prisma.join(
          unknown.map(
            (c) => Prisma.sql`(${c.jobId}, ${c.kind}, ${c.url ?? null}, ${c.platformStatus ?? "unknown"}, ${source},
          ${c.platformCreatedAt ?? null}, ${c.settledAt ?? null}, ${now}, ${now})`,
          ),
        )}
        ON CONFLICT ("id") DO NOTHING`;
          }
          // A receipt makes a late webhook for the same job a cheap "duplicate" instead of a second item.
          await tx.$executeRaw`
      INSERT INTO "Receipt" ("jobId", "eventType", "deliveryId", "subscriptionId", "source", "receivedAt")
      VALUES ${Prisma.join(todo.map((c) => Prisma.sql`(${c.jobId}, ${EVENT_FOR_KIND[c.kind]}, ${c.deliveryId ?? null}, ${c.subscriptionId ?? null}, ${source}, ${now})`))}
      ON CONFLICT ("jobId") DO NOTHING`;
          const inserted = await enqueueMany(
            tx,
            todo.map((c) => ({
              ...processJobItem({
                jobId: c.jobId,
                eventType: EVENT_FOR_KIND[c.kind],
                deliveryId: c.deliveryId ?? null,
                source,
              }),
              trace: "link" as const,
            })),
          );
          await tx.jobEvent.createMany({
            data: todo.map((c) => ({
              jobId: c.jobId,
              type: "enqueued",
              at: now,
              detail: JSON.stringify({ source, runId }),
            })),
          });
          return inserted;
        });

  return {
    alreadyDone: ids.length - pending.length,
    // Items that appeared between the check and the insert count as already queued too.
    alreadyQueued: pending.length - enqueued,
    enqueued,
    created: unknown.length,
    // The ids sent to the queue (a racing producer may have won a few of them; harmless either way).
    enqueuedIds: todo.map((c) => c.jobId),
    // Every pending candidate was queued before (live item) or is now (this transaction, or a racing
    // producer's item that won the dedupe key): none is left outside the queue.
    unqueuedIds: pending.filter((id) => !queued.has(id) && !todo.some((c) => c.jobId === id)),
  };
}
