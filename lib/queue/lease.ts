import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { Prisma } from "@/generated/prisma/client";
import { db, dialect, directQuery, directSqliteTransaction, sqlInt, type SqliteTx } from "../db";
import { queueTraceContext } from "../tracing";
import { claimedRowSchema, itemJobSchema, type ClaimedItem, type DbOrTx } from "./types";

// Claims are one UPDATE … WHERE id IN (SELECT … LIMIT n) that re-checks the claimable condition on
// the row it updates, so two workers (threads or processes) can never both take an item: on SQLite
// the statement runs under the single write lock; on PostgreSQL the candidates are locked with
// FOR UPDATE SKIP LOCKED, so concurrent workers take different items instead of queueing behind
// each other, and the re-check after the lock keeps it safe either way. Each claim gets its own lease
// owner token, and every later update is a compare-and-set on it: a worker whose lease expired and
// was re-claimed by another cannot ack, retry or dead-letter the other worker's item.
//
// Attempts are counted at claim time, so a worker that crashes mid-item still uses up an attempt and
// a poison item cannot crash-loop forever; reschedule() and release() give the attempt back.

export const claimable = (now: Date) =>
  Prisma.sql`(("state" = 'ready' AND "availableAt" <= ${now}) OR ("state" = 'leased' AND "leaseExpiresAt" <= ${now}))`;

/**
 * The table a claim updates, by the ids it picked. On SQLite `NOT INDEXED` keeps the UPDATE on the
 * primary key: without statistics (no ANALYZE has run) the planner otherwise answers the re-checked
 * claimable condition with a multi-index OR over every waiting row, 8 ms a claim with 30,000 waiting
 * instead of 0.2 ms, and a claim holds the one write lock the receiver and submits also wait for.
 */
export const claimTarget = () =>
  dialect() === "postgres" ? Prisma.sql`"QueueItem"` : Prisma.sql`"QueueItem" NOT INDEXED`;

export type ClaimOptions = {
  owner: string;
  limit: number;
  leaseMs: number;
  now?: Date;
  /**
   * Also take items whose lease expired (their worker died); default true. A worker looks for them
   * now and then rather than in every claim (lib/worker/worker.ts): the look walks the lease index
   * past every row version earlier claims left there until VACUUM removes them.
   */
  expired?: boolean;
};

/**
 * Leases up to `limit` due items (leased with an expired lease first, then ready and due): fresh work before a
 * backlog (`priority`, lib/queue/types.ts), oldest first within each, so a reconciliation that finds
 * 30,000 unknown jobs never delays today's webhooks and submits.
 */
export async function claim(opts: ClaimOptions, tx: DbOrTx = db()): Promise<ClaimedItem[]> {
  if (opts.limit <= 0) return [];
  const now = opts.now ?? new Date();
  const token = `${opts.owner}:${randomUUID().slice(0, 8)}`;
  const expires = new Date(now.getTime() + opts.leaseMs);
  const skipLocked = dialect() === "postgres" ? Prisma.sql`FOR UPDATE SKIP LOCKED` : Prisma.empty;
  // The candidates are picked once, in materialized CTEs: PostgreSQL may run an `IN (SELECT … LIMIT n
  // FOR UPDATE SKIP LOCKED)` subquery more than once per statement, and each run skips the rows the
  // previous one locked, so a claim for 2 items could lease 3 (seen in lib/worker/worker.test.ts).
  // Expired leases and due ready items are two index range scans (state, leaseExpiresAt) and (state,
  // priority, availableAt, id), each stopping at `limit`: one condition with an OR between them read
  // and sorted every claimable row, 26 ms a claim with 20,000 items waiting (bench/queue.ts).
  const materialized = dialect() === "postgres" ? Prisma.sql`MATERIALIZED` : Prisma.empty;
  const expired =
    opts.expired === false
      ? Prisma.sql`SELECT "id" FROM "QueueItem" WHERE 1 = 0`
      : Prisma.sql`SELECT "id" FROM "QueueItem" WHERE "state" = 'leased' AND "leaseExpiresAt" <= ${now}
      ORDER BY "leaseExpiresAt", "id" LIMIT ${opts.limit} ${skipLocked}`;
  const candidates = Prisma.sql`
    "expired" AS ${materialized} (
      ${expired}
    ), "due" AS ${materialized} (
      SELECT "id", "priority", "availableAt" FROM "QueueItem" WHERE "state" = 'ready' AND "availableAt" <= ${now}
      ORDER BY "priority", "availableAt", "id" LIMIT ${opts.limit} ${skipLocked}
    ), "picked" AS ${materialized} (
      SELECT "id" FROM (
        SELECT "id", 0 AS "o", 0 AS "p", NULL AS "a" FROM "expired"
        UNION ALL SELECT "id", 1, "priority", "availableAt" FROM "due"
      ) AS "c" ORDER BY "o", "p", "a", "id" LIMIT ${opts.limit}
    )`;
  const update = Prisma.sql`
    UPDATE ${claimTarget()}
       SET "state" = 'leased', "leaseOwner" = ${token}, "leaseExpiresAt" = ${expires}, "attempts" = "attempts" + 1, "updatedAt" = ${now}
     WHERE "id" IN (SELECT "id" FROM "picked")
       AND ${claimable(now)}
     RETURNING "id", "kind", "payload", "jobId", "dedupeKey", "attempts", "maxAttempts", "leaseOwner", "leaseExpiresAt", "traceContext"`;
  // On PostgreSQL the claim also reads the head of each item's Job row (the handler's first read, one
  // round trip a job); SQLite's UPDATE cannot sit in a CTE, and its read is a prepared statement in
  // process, so the handler reads it there.
  const statement =
    dialect() === "postgres"
      ? Prisma.sql`WITH ${candidates}, "claimed" AS (${update})
          SELECT c.*, j."kind" AS "jobKind", j."outcome" AS "jobOutcome", j."url" AS "jobUrl"
            FROM "claimed" c LEFT JOIN "Job" j ON j."id" = c."jobId"`
      : Prisma.sql`WITH ${candidates} ${update}`;
  // Outside a caller's transaction: apart from the ORM (directQuery), once per job on the worker's hot path.
  const rows = (tx === db() ? await directQuery(statement) : null) ?? (await tx.$queryRaw(statement));
  return claimedWithJob
    .array()
    .parse(rows)
    .sort((a, b) => a.id - b.id);
}

const claimedWithJob = claimedRowSchema
  .extend({
    jobKind: z.string().nullish(),
    jobOutcome: z.string().nullish(),
    jobUrl: z.string().nullish(),
  })
  .transform(({ jobKind, jobOutcome, jobUrl, ...item }): ClaimedItem => {
    if (jobKind === undefined) return item; // not read (SQLite)
    const job =
      jobKind === null || item.jobId === null ? null : { kind: jobKind, outcome: jobOutcome, url: jobUrl ?? null };
    return { ...item, job: job && itemJobSchema.parse(job) };
  });

/** Heartbeat: the item is still being worked on; keep the lease for another leaseMs. False if it was lost. */
export async function extendLease(item: ClaimedItem, leaseMs: number, tx: DbOrTx = db()): Promise<boolean> {
  const now = new Date();
  const n = await tx.$executeRaw`
    UPDATE "QueueItem" SET "leaseExpiresAt" = ${new Date(now.getTime() + leaseMs)}, "updatedAt" = ${now}
    WHERE "id" = ${item.id} AND "state" = 'leased' AND "leaseOwner" = ${item.leaseOwner}`;
  return n > 0;
}

/** Done: frees the dedupe key so a later event for the same job can be queued. False if the lease was lost. */
export async function ack(item: ClaimedItem, tx: DbOrTx = db()): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>(ackStatement(item, new Date()));
  return rows.length > 0;
}

/**
 * Acks `item` in the caller's SQLite transaction `tx` (a compare-and-set on its lease), so the work
 * and its ack commit together: one transaction less a job. False if the lease was taken over.
 */
export function ackWithin(tx: SqliteTx, item: ClaimedItem): boolean {
  return tx.rows(ackStatement(item, new Date())).length > 0;
}

/**
 * The ack as an `UPDATE … RETURNING "id"` for a caller's own statement (a data-modifying CTE on
 * PostgreSQL), taking effect only `when` holds: the work and its ack commit together, one round trip.
 */
export function ackStatement(item: ClaimedItem, now: Date, when: Prisma.Sql = Prisma.sql`TRUE`): Prisma.Sql {
  return Prisma.sql`UPDATE "QueueItem" SET "state" = 'done', "dedupeKey" = NULL, "leaseOwner" = NULL,
      "leaseExpiresAt" = NULL, "doneAt" = ${now}, "updatedAt" = ${now}
    WHERE "id" = ${item.id} AND "state" = 'leased' AND "leaseOwner" = ${item.leaseOwner} AND (${when})
    RETURNING "id"`;
}

/**
 * ack() for many items in one statement: each is still a compare-and-set on its own lease owner (the
 * items of one claim share a token; the others each keep theirs). Returns the ids acked; an item left
 * out had lost its lease.
 */
export async function ackMany(items: readonly ClaimedItem[], tx: DbOrTx = db()): Promise<Set<number>> {
  if (items.length === 0) return new Set();
  if (tx === db()) {
    // SQLite: one compare-and-set per item in one transaction on the connection directly.
    const direct = await directSqliteTransaction(
      (sqlite) => new Set(items.filter((item) => ackWithin(sqlite, item)).map((item) => item.id)),
    );
    if (direct) return direct;
  }
  const byOwner = new Map<string, number[]>();
  for (const item of items) byOwner.set(item.leaseOwner, [...(byOwner.get(item.leaseOwner) ?? []), item.id]);
  const owned = [...byOwner].map(
    ([owner, ids]) => Prisma.sql`("leaseOwner" = ${owner} AND "id" IN (${Prisma.join(ids)}))`,
  );
  const now = new Date();
  const rows = await tx.$queryRaw`
    UPDATE "QueueItem" SET "state" = 'done', "dedupeKey" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
      "doneAt" = ${now}, "updatedAt" = ${now}
    WHERE "id" IN (${Prisma.join(items.map((i) => i.id))}) AND "state" = 'leased' AND (${Prisma.join(owned, " OR ")})
    RETURNING "id"`;
  return new Set(idRows.parse(rows).map((r) => r.id));
}

const idRows = z.array(z.object({ id: sqlInt }));

/** Exponential backoff with equal jitter: never zero, never above the cap. */
export function backoffMs(attempt: number, baseMs = 1000, capMs = 5 * 60_000, random = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export type ErrorInfo = { code?: string | null; message: string };

export function describeError(err: unknown): ErrorInfo {
  if (err instanceof Error) {
    const code = "code" in err && typeof err.code === "string" ? err.code : err.name;
    return { code, message: err.message.slice(0, 2000) };
  }
  return { code: null, message: String(err).slice(0, 2000) };
}

/** A failed attempt: back to ready after a backoff, or dead once its attempts are used up. */
export async function retry(
  item: ClaimedItem,
  error: unknown,
  delayMs?: number,
  tx: DbOrTx = db(),
): Promise<"retried" | "dead" | "lost"> {
  const info = describeError(error);
  if (item.attempts >= item.maxAttempts) {
    return (await deadLetter(
      item,
      { ...info, message: `gave up after ${item.attempts} attempts: ${info.message}` },
      tx,
    ))
      ? "dead"
      : "lost";
  }
  const now = new Date();
  const at = new Date(now.getTime() + (delayMs ?? backoffMs(item.attempts)));
  const n = await tx.$executeRaw`
    UPDATE "QueueItem" SET "state" = 'ready', "availableAt" = ${at}, "lastError" = ${info.message},
      "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${now}, "traceContext" = ${nextAttemptTrace(item)}
    WHERE "id" = ${item.id} AND "state" = 'leased' AND "leaseOwner" = ${item.leaseOwner}`;
  return n > 0 ? "retried" : "lost";
}

/** "Not yet" (the job has not settled, or the platform asked us to wait): later, without using an attempt. */
export async function reschedule(item: ClaimedItem, delayMs: number, tx: DbOrTx = db()): Promise<boolean> {
  return giveBack(item, new Date(Date.now() + Math.max(0, delayMs)), tx);
}

/** Graceful shutdown: hand the item back at once, attempt not counted. */
export async function release(item: ClaimedItem, tx: DbOrTx = db()): Promise<boolean> {
  return giveBack(item, new Date(), tx);
}

/**
 * The item's trace context for its next attempt: a link to this attempt's span (tracing on), so a retry,
 * a "not yet" or an operator's revival of a dead item starts a trace of its own instead of growing this
 * one; unchanged with tracing off.
 */
export function nextAttemptTrace(item: ClaimedItem): string | null {
  return queueTraceContext("link") ?? item.traceContext;
}

async function giveBack(item: ClaimedItem, at: Date, tx: DbOrTx): Promise<boolean> {
  const n = await tx.$executeRaw`
    UPDATE "QueueItem" SET "state" = 'ready', "availableAt" = ${at}, "attempts" = CASE WHEN "attempts" > 0 THEN "attempts" - 1 ELSE 0 END,
      "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${new Date()}, "traceContext" = ${nextAttemptTrace(item)}
    WHERE "id" = ${item.id} AND "state" = 'leased' AND "leaseOwner" = ${item.leaseOwner}`;
  return n > 0;
}

/** Dead: frees the dedupe key and records a DeadLetter row, both or neither. False if the lease was lost. */
export async function deadLetter(item: ClaimedItem, error: ErrorInfo, tx: DbOrTx = db()): Promise<boolean> {
  const run = async (t: DbOrTx) => {
    const now = new Date();
    const n = await t.$executeRaw`
      UPDATE "QueueItem" SET "state" = 'dead', "dedupeKey" = NULL, "lastError" = ${error.message},
        "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "doneAt" = ${now}, "updatedAt" = ${now},
        "traceContext" = ${nextAttemptTrace(item)}
      WHERE "id" = ${item.id} AND "state" = 'leased' AND "leaseOwner" = ${item.leaseOwner}`;
    if (n === 0) return false;
    await t.deadLetter.create({
      data: {
        jobId: item.jobId,
        queueItemId: item.id,
        kind: item.kind,
        errorCode: error.code ?? null,
        errorMessage: error.message,
        attempts: item.attempts,
      },
    });
    return true;
  };
  return "$transaction" in tx ? tx.$transaction(run) : run(tx);
}
