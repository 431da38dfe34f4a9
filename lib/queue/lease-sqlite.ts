import "server-only";
import type Database from "better-sqlite3";
import { sqliteDate } from "../runtime";
import { claimedRowSchema, type ClaimedItem } from "./types";

// The claim and the ack on SQLite as prepared statements on the app's connection (directSqlite and
// directSqliteTransaction, lib/db.ts): the same SQL as lease.ts's, which stays the path on PostgreSQL
// and inside a caller's transaction. Through the ORM each cost a WebAssembly compile and an
// interpreter pass several times the statement's own work, once per job on the worker's hot path
// (docs/development/performance.md, "Pipeline").

export type SqliteClaim = { token: string; limit: number; now: Date; expires: Date; expired: boolean };

// Ready and due items, and (when asked) items whose lease expired, picked once and then re-checked by
// the UPDATE on the row it changes; NOT INDEXED keeps the UPDATE on the primary key (lease.ts, claimTarget).
const claimSql = (expired: boolean) => `
  WITH "expired" AS (
    ${
      expired
        ? `SELECT "id" FROM "QueueItem" WHERE "state" = 'leased' AND "leaseExpiresAt" <= @now
      ORDER BY "leaseExpiresAt", "id" LIMIT @limit`
        : `SELECT "id" FROM "QueueItem" WHERE 1 = 0`
    }
  ), "due" AS (
    SELECT "id", "priority", "availableAt" FROM "QueueItem" WHERE "state" = 'ready' AND "availableAt" <= @now
    ORDER BY "priority", "availableAt", "id" LIMIT @limit
  ), "picked" AS (
    SELECT "id" FROM (
      SELECT "id", 0 AS "o", 0 AS "p", NULL AS "a" FROM "expired"
      UNION ALL SELECT "id", 1, "priority", "availableAt" FROM "due"
    ) AS "c" ORDER BY "o", "p", "a", "id" LIMIT @limit
  )
  UPDATE "QueueItem" NOT INDEXED
     SET "state" = 'leased', "leaseOwner" = @token, "leaseExpiresAt" = @expires, "attempts" = "attempts" + 1, "updatedAt" = @now
   WHERE "id" IN (SELECT "id" FROM "picked")
     AND (("state" = 'ready' AND "availableAt" <= @now) OR ("state" = 'leased' AND "leaseExpiresAt" <= @now))
   RETURNING "id", "kind", "payload", "jobId", "dedupeKey", "attempts", "maxAttempts", "leaseOwner", "leaseExpiresAt"`;

const CLAIM_SQL = { true: claimSql(true), false: claimSql(false) };

export function claimNow(conn: Database.Database, c: SqliteClaim): ClaimedItem[] {
  const rows = conn.prepare(CLAIM_SQL[`${c.expired}`]).all({
    token: c.token,
    limit: c.limit,
    now: sqliteDate(c.now),
    expires: sqliteDate(c.expires),
  });
  return claimedRowSchema.array().parse(rows);
}

const ACK_SQL = `
  UPDATE "QueueItem" SET "state" = 'done', "dedupeKey" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
    "doneAt" = @now, "updatedAt" = @now
  WHERE "id" = @id AND "state" = 'leased' AND "leaseOwner" = @owner`;

/**
 * Acks `item` in the caller's transaction on `conn` (a compare-and-set on its lease), so the work and
 * its ack commit together: one transaction less a job. False if the lease was taken over.
 */
export function ackWithin(conn: Database.Database, item: ClaimedItem): boolean {
  return ackNow(conn, [item]).has(item.id);
}

/** Acks each item on its own lease (a compare-and-set), in the caller's transaction; the ids acked. */
export function ackNow(conn: Database.Database, items: readonly ClaimedItem[]): Set<number> {
  const ack = conn.prepare(ACK_SQL);
  const now = sqliteDate(new Date());
  const acked = new Set<number>();
  for (const item of items) if (ack.run({ id: item.id, owner: item.leaseOwner, now }).changes === 1) acked.add(item.id);
  return acked;
}
