import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { z } from "zod";
import { inList, readDb, sqlInt } from "../db";
import { bodySize } from "../results";
import { forwardDedupeKeySql } from "./outbox";

// The reads of a sink batch (lib/outbound/sink-batch.ts), in raw SQL parsed with zod: Prisma's findMany
// cost 2–15 ms a call for the same rows here, more than the sink's own write of the batch. On readDb():
// on SQLite a connection of its own, not queued behind the writers' transactions; what is read was
// committed before the items were claimed.

const cursorRow = z.object({ id: sqlInt, createdAt: z.coerce.date() });
/** Where a page of candidates ended: deliveries are read in (createdAt, id) order. */
export type Cursor = z.infer<typeof cursorRow>;

/**
 * A destination's deliveries waiting for their first send, oldest first, after `after`, but those whose
 * item another batch holds (leased, the lease not over): batches running side by side would otherwise
 * each read the same oldest page, find it taken and read on, a page read and a claim each time.
 */
export async function pendingPage(
  destinationId: string,
  except: number,
  after: Cursor | null,
  limit: number,
  now: Date,
): Promise<Cursor[]> {
  const past = after
    ? Prisma.sql`AND ("createdAt" > ${after.createdAt} OR ("createdAt" = ${after.createdAt} AND "id" > ${after.id}))`
    : Prisma.empty;
  const rows = await readDb().$queryRaw`
    SELECT "id", "createdAt" FROM "OutboundDelivery" d
    WHERE "destinationId" = ${destinationId} AND "status" = 'pending' AND "id" <> ${except} ${past}
      AND NOT EXISTS (SELECT 1 FROM "QueueItem" q WHERE q."dedupeKey" = ${forwardDedupeKeySql('d."id"')}
        AND q."state" = 'leased' AND q."leaseExpiresAt" > ${now})
    ORDER BY "createdAt", "id" LIMIT ${limit}`;
  return cursorRow.array().parse(rows);
}

/** A destination's deliveries to be retried whose backoff is over. */
export async function dueRetries(destinationId: string, except: number, now: Date, limit: number): Promise<number[]> {
  const rows = await readDb().$queryRaw`
    SELECT "id" FROM "OutboundDelivery"
    WHERE "destinationId" = ${destinationId} AND "status" = 'retrying' AND "nextAttemptAt" <= ${now} AND "id" <> ${except}
    LIMIT ${limit}`;
  return z
    .object({ id: sqlInt })
    .array()
    .parse(rows)
    .map((r) => r.id);
}

const batchRow = z.object({
  id: sqlInt,
  destinationId: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  jobId: z.string(),
  outcome: z.string(),
  status: z.string(),
  attempts: sqlInt,
  retryUntil: z.coerce.date(),
  lastError: z.string().nullable(),
  createdAt: z.coerce.date(),
  /** job.stored: how many results the event carries (0 for other events, or a job gone). */
  results: sqlInt,
  /** job.stored: the characters of markdown and html those results carry (0 otherwise). */
  bodies: sqlInt,
});
export type BatchRow = z.infer<typeof batchRow>;

/**
 * The delivery rows of a batch, with the number of results each job.stored event will carry and the
 * size of their bodies (`length()` in SQL: known before any body is read).
 */
export async function batchRows(destinationId: string, ids: number[]): Promise<BatchRow[]> {
  if (ids.length === 0) return [];
  const rows = await readDb().$queryRaw`
    SELECT d."id", d."destinationId", d."eventId", d."eventType", d."jobId", d."outcome", d."status", d."attempts",
      d."retryUntil", d."lastError", d."createdAt", COALESCE(j."resultCount", 0) AS "results",
      CASE WHEN d."eventType" = 'job.stored' THEN COALESCE((SELECT SUM(${bodySize("r")})
        FROM "Result" r WHERE r."jobId" = d."jobId"), 0) ELSE 0 END AS "bodies"
    FROM "OutboundDelivery" d LEFT JOIN "Job" j ON j."id" = d."jobId" AND d."eventType" = 'job.stored'
    WHERE ${inList('d."id"', ids)} AND d."destinationId" = ${destinationId}`;
  return batchRow.array().parse(rows);
}
