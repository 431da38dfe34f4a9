import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { getConfig } from "../config";
import { dialect } from "../db";
import { queueTraceContext } from "../tracing";
import { QUEUE_CHANNEL } from "./wake";
import { PRIORITY_FRESH, type DbOrTx, type EnqueueItem } from "./types";

// Every producer enqueues through here, inside its own transaction, with an item built by its kind's
// typed producer (e.g. lib/jobs/process-job.ts); the receiver's prepared statement writes the same row.
// Raw, portable SQL: ON CONFLICT on the dedupe key works on SQLite and PostgreSQL, and a conflict is "already queued", not an error. Timestamps are bound as Dates so they are stored
// in the same text format Prisma uses, which keeps text comparisons on them correct.

const CHUNK = 100; // rows per INSERT: 10 parameters each, far below SQLite's limit

function row(item: EnqueueItem, now: Date, defaultMax: number): Prisma.Sql {
  const payload = JSON.stringify(item.payload ?? {});
  // The trace the item belongs to travels in its row, not its payload (null with tracing off).
  return Prisma.sql`(${item.kind}, ${payload}, ${item.jobId ?? null}, ${item.dedupeKey ?? null}, 'ready', 0,
    ${item.maxAttempts ?? defaultMax}, ${item.priority ?? PRIORITY_FRESH}, ${item.availableAt ?? now}, ${now}, ${now},
    ${queueTraceContext(item.trace)})`;
}

async function insert(tx: DbOrTx, rows: Prisma.Sql[]): Promise<number> {
  const n = await tx.$executeRaw`
    INSERT INTO "QueueItem" ("kind", "payload", "jobId", "dedupeKey", "state", "attempts",
      "maxAttempts", "priority", "availableAt", "createdAt", "updatedAt", "traceContext")
    VALUES ${Prisma.join(rows)}
    ON CONFLICT ("dedupeKey") DO NOTHING`;
  // Workers in other processes wake when the caller's transaction commits (lib/queue/wake.ts).
  if (n > 0 && dialect() === "postgres") await tx.$executeRaw`SELECT pg_notify(${QUEUE_CHANNEL}, '')`;
  return n;
}

/** Adds one item; false when a live item with the same dedupe key already exists. */
export async function enqueue(tx: DbOrTx, item: EnqueueItem): Promise<boolean> {
  const inserted = await insert(tx, [row(item, new Date(), getConfig().TALLY_QUEUE_MAX_ATTEMPTS)]);
  return inserted > 0;
}

/** Set-based enqueue (a reconciliation page at a time); returns how many rows were inserted. */
export async function enqueueMany(tx: DbOrTx, items: EnqueueItem[]): Promise<number> {
  const now = new Date();
  const max = getConfig().TALLY_QUEUE_MAX_ATTEMPTS;
  let inserted = 0;
  for (let i = 0; i < items.length; i += CHUNK) {
    inserted += await insert(
      tx,
      items.slice(i, i + CHUNK).map((item) => row(item, now, max)),
    );
  }
  return inserted;
}
