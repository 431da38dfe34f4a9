import "server-only";
import { randomUUID } from "node:crypto";
import { Prisma } from "@/generated/prisma/client";
import { z } from "zod";
import { db, dialect, inList, sqlInt } from "../db";
import { queueTraceContext } from "../tracing";
import { claimable, claimTarget } from "./lease";
import { claimedRowSchema, type ClaimedItem, type DbOrTx } from "./types";

// Items taken beside the one a worker's claim handed out: a handler that can do the work of many items
// at once (a sink batch, lib/outbound/sink-batch.ts) names the ones it wants by their dedupe keys and
// takes those that are free. The rules are claim()'s (lib/queue/lease.ts): only items ready and due,
// or leased with an expired lease; one UPDATE that re-checks the condition on each row it changes (and
// on PostgreSQL skips rows another claim has locked), so an item leased by someone else is never taken;
// attempts counted at claim time. An item whose attempts are used up is left for the worker, which
// dead-letters it (lib/queue/run-item.ts). All items of one claim share one lease token, so they are
// settled together (ackAll, rescheduleAll, releaseAll: each returns the ids it still held) or one by
// one with lease.ts's functions.

export type ClaimByKeysOptions = {
  kind: string;
  dedupeKeys: string[];
  owner: string;
  /** At most this many items; the lowest ids first. */
  limit: number;
  leaseMs: number;
  now?: Date;
};

/** Leases up to `limit` claimable items of `kind` whose dedupe key is one of `dedupeKeys`. */
export async function claimByDedupeKeys(opts: ClaimByKeysOptions, tx: DbOrTx = db()): Promise<ClaimedItem[]> {
  if (opts.limit <= 0 || opts.dedupeKeys.length === 0) return [];
  const now = opts.now ?? new Date();
  const token = `${opts.owner}:${randomUUID().slice(0, 8)}`;
  const expires = new Date(now.getTime() + opts.leaseMs);
  const postgres = dialect() === "postgres";
  // Materialized and locked once, as in claim(): PostgreSQL may otherwise run the subquery again.
  const rows = await tx.$queryRaw`
    WITH "picked" AS ${postgres ? Prisma.sql`MATERIALIZED` : Prisma.empty} (
      SELECT "id" FROM "QueueItem"
      WHERE ${inList('"dedupeKey"', opts.dedupeKeys)} AND "kind" = ${opts.kind}
        AND "attempts" < "maxAttempts" AND ${claimable(now)}
      ORDER BY "id" LIMIT ${opts.limit} ${postgres ? Prisma.sql`FOR UPDATE SKIP LOCKED` : Prisma.empty}
    )
    UPDATE ${claimTarget()}
       SET "state" = 'leased', "leaseOwner" = ${token}, "leaseExpiresAt" = ${expires}, "attempts" = "attempts" + 1, "updatedAt" = ${now}
     WHERE "id" IN (SELECT "id" FROM "picked") AND ${claimable(now)}
     RETURNING "id", "kind", "payload", "jobId", "dedupeKey", "attempts", "maxAttempts", "leaseOwner", "leaseExpiresAt", "traceContext"`;
  return claimedRowSchema
    .array()
    .parse(rows)
    .sort((a, b) => a.id - b.id);
}

/** The items grouped by lease token: one statement per claim that handed them out. */
function byOwner(items: ClaimedItem[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const item of items) groups.set(item.leaseOwner, [...(groups.get(item.leaseOwner) ?? []), item.id]);
  return groups;
}

const idRow = z.object({ id: sqlInt });

/** ack() for many items at once; returns the ids still held and now done (a lost lease is left alone). */
export async function ackAll(items: ClaimedItem[], tx: DbOrTx = db()): Promise<number[]> {
  const ids: number[] = [];
  const now = new Date();
  for (const [owner, group] of byOwner(items)) {
    const rows = await tx.$queryRaw`
      UPDATE "QueueItem" SET "state" = 'done', "dedupeKey" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
        "doneAt" = ${now}, "updatedAt" = ${now}
      WHERE ${inList('"id"', group)} AND "state" = 'leased' AND "leaseOwner" = ${owner}
      RETURNING "id"`;
    ids.push(
      ...idRow
        .array()
        .parse(rows)
        .map((r) => r.id),
    );
  }
  return ids.sort((a, b) => a - b);
}

/** reschedule() for many items at once: ready again after `delayMs`, the attempt not counted; the ids still held. */
export async function rescheduleAll(items: ClaimedItem[], delayMs: number, tx: DbOrTx = db()): Promise<number[]> {
  const ids: number[] = [];
  const now = new Date();
  const at = new Date(now.getTime() + Math.max(0, delayMs));
  // With tracing on, their next attempts link to the span that handed them back (lease.ts's nextAttemptTrace).
  const trace = queueTraceContext("link");
  for (const [owner, group] of byOwner(items)) {
    const rows = await tx.$queryRaw`
      UPDATE "QueueItem" SET "state" = 'ready', "availableAt" = ${at},
        "attempts" = CASE WHEN "attempts" > 0 THEN "attempts" - 1 ELSE 0 END,
        "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${now}, "traceContext" = COALESCE(${trace}, "traceContext")
      WHERE ${inList('"id"', group)} AND "state" = 'leased' AND "leaseOwner" = ${owner}
      RETURNING "id"`;
    ids.push(
      ...idRow
        .array()
        .parse(rows)
        .map((r) => r.id),
    );
  }
  return ids.sort((a, b) => a - b);
}

/** release() for many items at once: back to ready now, the attempt not counted; the ids still held. */
export function releaseAll(items: ClaimedItem[], tx: DbOrTx = db()): Promise<number[]> {
  return rescheduleAll(items, 0, tx);
}
