import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import { ensureRow, int } from "./shared-budget-store";

// The statements of the shared circuit breaker, on the platform's budget row (PlatformBudget). Each is
// one round trip and one single-row UPDATE … RETURNING (or a SELECT): no transaction, no lock held past
// the statement. The probe claim is atomic on both stores: SQLite runs one write at a time, and
// PostgreSQL re-checks the WHERE of an UPDATE against the row a concurrent UPDATE committed, so of two
// processes that claim at once one gets the row and the other none.

/** The breaker as the database holds it (times in ms since the epoch; 0: none). */
export type BreakerRow = {
  downSince: number;
  downFailureAt: number;
  downFailures: number;
  downBy: string;
  downReason: string;
  probeAt: number;
  probeBy: string;
  probeUntil: number;
  upAt: number;
  upBy: string;
};

export const CLOSED: BreakerRow = {
  downSince: 0,
  downFailureAt: 0,
  downFailures: 0,
  downBy: "",
  downReason: "",
  probeAt: 0,
  probeBy: "",
  probeUntil: 0,
  upAt: 0,
  upBy: "",
};

export type BreakerStore = {
  read(key: string): Promise<BreakerRow>;
  /** Opens it (when closed) for every process; when already open, only the latest failure's time moves. */
  open(
    key: string,
    o: { nowMs: number; by: string; reason: string; failures: number; probeAt: number },
  ): Promise<BreakerRow>;
  /** The probe lease, if the wait is over and nobody holds it: the row if `token` got it, else null. */
  claimProbe(key: string, nowMs: number, token: string, untilMs: number): Promise<BreakerRow | null>;
  /** The probe failed: the next probe at `probeAt`, the lease given up. Null when `token` no longer held it. */
  probeFailed(
    key: string,
    o: { token: string; nowMs: number; reason: string; failures: number; probeAt: number },
  ): Promise<BreakerRow | null>;
  /** Gives back a probe lease that was never used. */
  releaseProbe(key: string, token: string): Promise<void>;
  /** Closes it (an answer other than a 5xx): every process sends again. */
  close(key: string, nowMs: number, by: string): Promise<void>;
};

type Raw = {
  downSince: bigint | number;
  downFailureAt: bigint | number;
  downFailures: bigint | number;
  downBy: string;
  downReason: string;
  probeAt: bigint | number;
  probeBy: string;
  probeUntil: bigint | number;
  upAt: bigint | number;
  upBy: string;
};

const COLUMNS = Prisma.raw(
  `"downSince", "downFailureAt", "downFailures", "downBy", "downReason", "probeAt", "probeBy", "probeUntil", "upAt", "upBy"`,
);

const toRow = (r: Raw): BreakerRow => ({
  downSince: Number(r.downSince),
  downFailureAt: Number(r.downFailureAt),
  downFailures: Number(r.downFailures),
  downBy: r.downBy,
  downReason: r.downReason,
  probeAt: Number(r.probeAt),
  probeBy: r.probeBy,
  probeUntil: Number(r.probeUntil),
  upAt: Number(r.upAt),
  upBy: r.upBy,
});

/** Runs an UPDATE … RETURNING; creates the row once if it is missing. */
async function updateOrCreate(key: string, run: () => Promise<Raw[]>): Promise<BreakerRow | null> {
  let rows = await run();
  if (rows.length === 0) {
    await ensureRow(key);
    rows = await run();
  }
  return rows.length > 0 ? toRow(rows[0]) : null;
}

export async function readBreaker(key: string): Promise<BreakerRow> {
  const rows = await db().$queryRaw<Raw[]>`SELECT ${COLUMNS} FROM "PlatformBudget" WHERE "key" = ${key}`;
  return rows.length > 0 ? toRow(rows[0]) : CLOSED;
}

export const databaseBreakerStore: BreakerStore = {
  read: readBreaker,

  async open(key, o) {
    const closed = Prisma.sql`"downSince" = 0`;
    const row = await updateOrCreate(
      key,
      () => db().$queryRaw<Raw[]>`
        UPDATE "PlatformBudget" SET
          "downSince" = CASE WHEN ${closed} THEN ${int(o.nowMs)} ELSE "downSince" END,
          "downBy" = CASE WHEN ${closed} THEN ${o.by} ELSE "downBy" END,
          "downReason" = CASE WHEN ${closed} THEN ${o.reason} ELSE "downReason" END,
          "downFailures" = CASE WHEN ${closed} THEN ${o.failures} ELSE "downFailures" END,
          "probeAt" = CASE WHEN ${closed} THEN ${int(o.probeAt)} ELSE "probeAt" END,
          "probeBy" = CASE WHEN ${closed} THEN '' ELSE "probeBy" END,
          "probeUntil" = CASE WHEN ${closed} THEN 0 ELSE "probeUntil" END,
          "downFailureAt" = ${int(o.nowMs)}
        WHERE "key" = ${key}
        RETURNING ${COLUMNS}`,
    );
    return row ?? CLOSED;
  },

  async claimProbe(key, nowMs, token, untilMs) {
    const now = int(nowMs);
    const rows = await db().$queryRaw<Raw[]>`
      UPDATE "PlatformBudget" SET "probeBy" = ${token}, "probeUntil" = ${int(untilMs)}
      WHERE "key" = ${key} AND "downSince" <> 0 AND "probeAt" <= ${now} AND "probeUntil" <= ${now}
      RETURNING ${COLUMNS}`;
    return rows.length > 0 ? toRow(rows[0]) : null;
  },

  async probeFailed(key, o) {
    const rows = await db().$queryRaw<Raw[]>`
      UPDATE "PlatformBudget" SET "probeAt" = ${int(o.probeAt)}, "probeBy" = '', "probeUntil" = 0,
        "downFailures" = ${o.failures}, "downFailureAt" = ${int(o.nowMs)}, "downReason" = ${o.reason}
      WHERE "key" = ${key} AND "probeBy" = ${o.token} AND "downSince" <> 0
      RETURNING ${COLUMNS}`;
    return rows.length > 0 ? toRow(rows[0]) : null;
  },

  async releaseProbe(key, token) {
    await db()
      .$executeRaw`UPDATE "PlatformBudget" SET "probeBy" = '', "probeUntil" = 0 WHERE "key" = ${key} AND "probeBy" = ${token}`;
  },

  async close(key, nowMs, by) {
    await db().$executeRaw`
      UPDATE "PlatformBudget" SET "downSince" = 0, "downFailureAt" = 0, "downFailures" = 0, "probeAt" = 0,
        "probeBy" = '', "probeUntil" = 0, "upAt" = ${int(nowMs)}, "upBy" = ${by}
      WHERE "key" = ${key} AND "downSince" <> 0`;
  },
};

/** One platform's outage as the processes on this database last reported it (PlatformBudget). */
export type Outage = { downSince: number; failedInARow: number };

/** The platforms that count as down with a failed call at or after `sinceMs` (older ones are stale). */
export async function readOutages(sinceMs: number): Promise<Outage[]> {
  const rows = await db().$queryRaw<{ downSince: bigint | number; downFailures: number }[]>`
    SELECT "downSince", "downFailures" FROM "PlatformBudget"
    WHERE "downSince" > 0 AND "downFailureAt" >= ${int(sinceMs)} ORDER BY "downSince"`;
  return rows.map((r) => ({ downSince: Number(r.downSince), failedInARow: Number(r.downFailures) }));
}
