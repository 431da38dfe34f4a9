import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { db, dialect } from "../db";

// The three statements of the shared rate budget, on one row per platform (PlatformBudget). Each is
// one round trip and one single-row write or read: no transaction, no lock held past the statement.
// Integer arithmetic only (µs and ms as BIGINT), so the same SQL runs on SQLite and PostgreSQL; only
// the names of the two-argument max/min differ.

export type Lease = {
  /** Reserved send times (ms since the epoch), ascending, spaced by the budget's interval. */
  slots: number[];
  /** When no slot was free within the horizon: the earliest time a lease can succeed (ms). */
  retryAt: number;
  pausedUntil: number;
};

export type BudgetStore = {
  lease(key: string, nowMs: number, wanted: number, spacingUs: number, horizonMs: number): Promise<Lease>;
  readPause(key: string): Promise<number>;
  writePause(key: string, untilMs: number): Promise<void>;
};

const big = (n: number) => BigInt(Math.floor(n));
const fn = () =>
  dialect() === "postgres"
    ? { max: Prisma.raw("GREATEST"), min: Prisma.raw("LEAST") }
    : { max: Prisma.raw("MAX"), min: Prisma.raw("MIN") };
export const int = (n: number) => Prisma.sql`CAST(${big(n)} AS BIGINT)`;

type Row = { nextAt: bigint | number; granted: bigint | number; pausedUntil: bigint | number };

export async function ensureRow(key: string): Promise<void> {
  await db()
    .$executeRaw`INSERT INTO "PlatformBudget" ("key", "nextAt", "granted", "pausedUntil") VALUES (${key}, 0, 0, 0) ON CONFLICT ("key") DO NOTHING`;
}

export const databaseBudgetStore: BudgetStore = {
  /**
   * Claims up to `wanted` consecutive send slots, `spacingUs` apart, starting at the row's next free
   * time (or now, or the pause's end, whichever is latest), but only slots that start before
   * now + horizon: a process cannot hoard the future, and a crashed one wastes at most the horizon.
   */
  async lease(key, nowMs, wanted, spacingUs, horizonMs) {
    const { max, min } = fn();
    const now = int(nowMs * 1000);
    const t = int(spacingUs);
    const start = Prisma.sql`${max}(${max}("nextAt", ${now}), "pausedUntil" * 1000)`;
    const granted = Prisma.sql`${min}(${int(wanted)}, ${max}(0, (${now} + ${int(horizonMs * 1000)} - ${start}) / ${t}))`;
    const run = () => db().$queryRaw<Row[]>`
      UPDATE "PlatformBudget" SET "granted" = ${granted}, "nextAt" = ${start} + ${t} * ${granted}
      WHERE "key" = ${key}
      RETURNING "nextAt", "granted", "pausedUntil"`;
    let rows = await run();
    if (rows.length === 0) {
      await ensureRow(key);
      rows = await run();
    }
    const row = rows[0];
    const n = Number(row.granted);
    const nextUs = Number(row.nextAt);
    const firstUs = nextUs - n * spacingUs;
    const slots = Array.from({ length: n }, (_, i) => (firstUs + i * spacingUs) / 1000);
    // Nothing granted: the next free slot lies beyond the horizon; it comes within reach when now
    // passes (next free time − horizon).
    const retryAt = n > 0 ? nowMs : nextUs / 1000 - horizonMs + spacingUs / 1000;
    return { slots, retryAt, pausedUntil: Number(row.pausedUntil) };
  },

  async readPause(key) {
    const rows = await db().$queryRaw<
      { pausedUntil: bigint | number }[]
    >`SELECT "pausedUntil" FROM "PlatformBudget" WHERE "key" = ${key}`;
    return rows.length > 0 ? Number(rows[0].pausedUntil) : 0;
  },

  /** Extends the pause (never shortens it) and moves the next free slot past it. */
  async writePause(key, untilMs) {
    const { max } = fn();
    const until = int(untilMs);
    const run = () => db().$executeRaw`
      UPDATE "PlatformBudget" SET "pausedUntil" = ${max}("pausedUntil", ${until}), "nextAt" = ${max}("nextAt", ${until} * 1000)
      WHERE "key" = ${key}`;
    if ((await run()) === 0) {
      await ensureRow(key);
      await run();
    }
  },
};
