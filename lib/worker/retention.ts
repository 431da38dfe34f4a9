import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { getConfig, type TallyConfig } from "../config";
import { db, dialect } from "../db";
import { log } from "../log";
import { expireCollectionRunBodies, expireResultBodies } from "../results";
import { claimTick } from "../scheduling";
import { slot } from "../runtime";

// Keeps the logs bounded: rows older than their retention are deleted at start and then hourly. Big
// tables are deleted in small batches with a pause between them: SQLite has one write lock, and the
// receiver must never wait long behind a delete (after a long downtime, or when the retention is
// lowered, millions of rows can be due at once).

const DAY = 86_400_000;
const HOUR = 3_600_000;
const CHECK_MS = 5 * 60_000;

type Target = {
  name: string;
  table: string;
  /** An indexed date column: rows before the cutoff on it are due. */
  column: string;
  days: (c: TallyConfig) => number;
  /** Further conditions a due row must meet. */
  also?: (cutoff: Date) => Prisma.Sql;
};

const TARGETS: Target[] = [
  {
    name: "inbound deliveries",
    table: "InboundDelivery",
    column: "receivedAt",
    days: (c) => c.TALLY_INBOUND_LOG_RETENTION_DAYS,
  },
  {
    name: "platform delivery mirror",
    table: "PlatformDelivery",
    column: "createdAt",
    days: (c) => c.TALLY_HISTORY_RETENTION_DAYS,
  },
  {
    name: "API calls per minute",
    table: "ApiCallMinute",
    column: "minute",
    days: (c) => c.TALLY_HISTORY_RETENTION_DAYS,
  },
  // Alert history (firings, repeats, resolves, tests; their notifications go with them). A rule's
  // current state is its AlertState row, never pruned.
  { name: "alert history", table: "AlertEvent", column: "at", days: (c) => c.TALLY_HISTORY_RETENTION_DAYS },
  // Finished queue items (one per job handled): the job, its events and results keep the story. Dead
  // items stay, their dead letters point at them; live ones are never touched.
  {
    name: "finished queue items",
    table: "QueueItem",
    column: "availableAt",
    days: (c) => c.TALLY_HISTORY_RETENTION_DAYS,
    also: (cutoff) => Prisma.sql`AND "state" = 'done' AND "doneAt" < ${cutoff}`,
  },
  // Forwarding: the attempt log, and deliveries that are finished (failing and dead ones stay).
  { name: "outbound attempts", table: "OutboundAttempt", column: "at", days: (c) => c.TALLY_HISTORY_RETENTION_DAYS },
  {
    name: "finished outbound deliveries",
    table: "OutboundDelivery",
    column: "createdAt",
    days: (c) => c.TALLY_HISTORY_RETENTION_DAYS,
    also: () => Prisma.sql`AND "status" IN ('delivered', 'skipped')`,
  },
  // Sign-ins that have ended (expired, or revoked and expired since): live sessions are never touched.
  {
    name: "ended sessions",
    table: "Session",
    column: "createdAt",
    days: (c) => c.TALLY_HISTORY_RETENTION_DAYS,
    also: (cutoff) => Prisma.sql`AND "expiresAt" < ${cutoff}`,
  },
];

export type PruneOptions = { now?: Date; batch?: number; pauseMs?: number };

/** Deletes what is past its retention; the rows deleted per log. */
export async function pruneHistory({ now = new Date(), batch = 5_000, pauseMs = 20 }: PruneOptions = {}): Promise<
  Record<string, number>
> {
  const config = getConfig();
  // Every table has a physical row address: SQLite's rowid, PostgreSQL's ctid.
  const rowRef = Prisma.raw(dialect() === "postgres" ? "ctid" : "rowid");
  const deleted: Record<string, number> = {};
  for (const t of TARGETS) {
    const cutoff = new Date(now.getTime() - t.days(config) * DAY);
    const table = Prisma.raw(`"${t.table}"`);
    const column = Prisma.raw(`"${t.column}"`);
    let total = 0;
    for (;;) {
      const n = await db().$executeRaw`
        DELETE FROM ${table} WHERE ${rowRef} IN (
          SELECT ${rowRef} FROM ${table} WHERE ${column} < ${cutoff} ${t.also?.(cutoff) ?? Prisma.empty} ORDER BY ${column} LIMIT ${batch})`;
      total += n;
      if (n < batch) break;
      await new Promise((r) => setTimeout(r, pauseMs));
    }
    deleted[t.name] = total;
  }
  // Page bodies past TALLY_RESULT_RETENTION_DAYS (the result rows stay).
  deleted["result bodies"] = await expireResultBodies({ now, batch: Math.min(batch, 1_000), pauseMs });
  // And of collection runs older than their collection's last N (keepBodiesRuns).
  deleted["collection run bodies"] = await expireCollectionRunBodies({ now, batch: Math.min(batch, 1_000), pauseMs });
  return deleted;
}

/** Prunes hourly across all processes (TALLY_SCHEDULER=on): whoever wins the hour's tick prunes. */
export function startRetention(): void {
  const started = slot<true>("retention.started");
  if (started.get()) return;
  started.set(true);
  const run = () =>
    claimTick("retention", HOUR)
      .then((won) => (won ? pruneHistory() : null))
      .then((deleted) => {
        if (deleted && Object.values(deleted).some((n) => n > 0)) log.info("old log rows pruned", deleted);
      })
      .catch((err) => log.warn("log pruning failed", { error: String(err) }));
  void run();
  // Checked every few minutes so a pass is never much later than the hour, whichever process wins it.
  setInterval(run, CHECK_MS).unref();
}
