import "server-only";
import { db, dialect } from "../db";

// The queue table's health on PostgreSQL. A SKIP LOCKED queue churns rows (every item is inserted,
// updated and deleted), and vacuum may only remove a dead row once no open transaction could still
// see it: one transaction left open (a forgotten psql session, a stuck report) holds back vacuum of
// every table of the database, the queue's dead rows pile up, and each claim walks past them.
// So the two numbers an operator needs: how old the oldest open transaction is, and how many dead
// rows the queue table holds. SQLite has neither (one writer, no MVCC horizon): null there.

export type QueueHealth = {
  /** Seconds since the oldest transaction still open in this database began (other than the reader). */
  oldestTransactionSeconds: number;
  /** Its backend's pid and state (`idle in transaction`, `active`), for the operator to find it. */
  oldestTransaction: { pid: number; state: string | null; application: string | null } | null;
  /** Dead rows of the queue table as PostgreSQL's statistics last counted them (a little behind). */
  queueDeadRows: number;
  queueLiveRows: number;
  lastAutovacuum: string | null;
};

/** `now` is the clock the age is measured against (the alert evaluation passes its own). */
export async function queueHealth(now = new Date()): Promise<QueueHealth | null> {
  if (dialect() !== "postgres") return null;
  const client = db();
  const [oldest, table] = await Promise.all([
    client.$queryRaw<Array<{ pid: number; state: string | null; application: string | null; since: Date }>>`
      SELECT pid, state, application_name AS application, xact_start AS since
        FROM pg_stat_activity
       WHERE datname = current_database() AND xact_start IS NOT NULL AND pid <> pg_backend_pid()
         AND backend_type = 'client backend'
       ORDER BY xact_start ASC LIMIT 1`,
    client.$queryRaw<Array<{ dead: bigint; live: bigint; vacuumed: Date | null }>>`
      SELECT n_dead_tup AS dead, n_live_tup AS live, GREATEST(last_autovacuum, last_vacuum) AS vacuumed
        FROM pg_stat_user_tables WHERE relname = 'QueueItem' AND schemaname = current_schema()`,
  ]);
  const o = oldest[0];
  const t = table[0];
  return {
    oldestTransactionSeconds: o ? Math.max(0, (now.getTime() - o.since.getTime()) / 1000) : 0,
    oldestTransaction: o ? { pid: o.pid, state: o.state, application: o.application } : null,
    queueDeadRows: Number(t?.dead ?? 0),
    queueLiveRows: Number(t?.live ?? 0),
    lastAutovacuum: t?.vacuumed?.toISOString() ?? null,
  };
}
