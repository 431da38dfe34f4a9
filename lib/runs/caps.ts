import "server-only";
import { dialect, type Tx } from "../db";
import type { DbOrTx } from "../queue";
import type { CapName } from "./contracts";

// The token caps a run's chunk draws on (issues 39 and 50), read and reserved in the transaction that
// records the chunk: the run's own maxTokens, and its collection's monthly cap, which every run of that
// collection created in the same calendar month (UTC) shares. A token belongs to the month its run was
// created in, so each month's sum is one number that only reservations raise.
//
// Atomic on both stores: the run's row is taken first (its submitter's first write), then, for a collection
// with a monthly cap, the collection's row (PostgreSQL: FOR UPDATE; SQLite has one writer, and BEGIN
// IMMEDIATE takes it before the first read). Every reservation against the month holds that row, so the
// sum read under it is the sum, and two processes cannot both take the last tokens. Settling, failing or
// cancelling a chunk only lowers charged + reserved, so it takes no cap's lock.

export type Cap = {
  cap: CapName;
  limit: number;
  /** Tokens charged + reserved against this cap now. */
  used: number;
  /** The part of `used` still reserved by chunks in flight: what may come back. */
  inFlight: number;
};

export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

function nextMonth(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/** Charged + reserved by the collection's runs created in the month of `at`, and the reserved part. */
export async function monthUsage(
  tx: DbOrTx,
  collectionId: string,
  at: Date,
): Promise<{ used: number; reserved: number }> {
  const agg = await tx.run.aggregate({
    where: { collectionId, createdAt: { gte: monthStart(at), lt: nextMonth(at) } },
    _sum: { tokensCharged: true, tokensReserved: true },
  });
  const reserved = agg._sum.tokensReserved ?? 0;
  return { used: (agg._sum.tokensCharged ?? 0) + reserved, reserved };
}

/** The collection's row as the lock of its monthly cap (see above); nothing to take on SQLite. */
async function lockCollection(tx: Tx, collectionId: string): Promise<void> {
  if (dialect() === "postgres")
    await tx.$executeRaw`SELECT 1 FROM "Collection" WHERE "id" = ${collectionId} FOR UPDATE`;
}

type RunSpend = {
  maxTokens: number | null;
  tokensCharged: number;
  tokensReserved: number;
  collectionId: string | null;
  createdAt: Date;
};

/**
 * The caps the run's next chunk draws on, the run's first (its cap is the one named when two leave the
 * same room). The caller holds the run's row; this takes the collection's when it has a monthly cap.
 */
export async function capsOf(tx: Tx, run: RunSpend): Promise<Cap[]> {
  const caps: Cap[] = [];
  if (run.maxTokens !== null)
    caps.push({
      cap: "run",
      limit: run.maxTokens,
      used: run.tokensCharged + run.tokensReserved,
      inFlight: run.tokensReserved,
    });
  if (run.collectionId) {
    const c = await tx.collection.findUnique({ where: { id: run.collectionId }, select: { monthlyMaxTokens: true } });
    if (c?.monthlyMaxTokens !== null && c?.monthlyMaxTokens !== undefined) {
      await lockCollection(tx, run.collectionId);
      // Read again under the lock: the cap as it is now, the month's sum as every committed reservation left it.
      const locked = await tx.collection.findUnique({
        where: { id: run.collectionId },
        select: { monthlyMaxTokens: true },
      });
      if (locked?.monthlyMaxTokens !== null && locked?.monthlyMaxTokens !== undefined) {
        const month = await monthUsage(tx, run.collectionId, run.createdAt);
        caps.push({
          cap: "collection_month",
          limit: locked.monthlyMaxTokens,
          used: month.used,
          inFlight: month.reserved,
        });
      }
    }
  }
  return caps;
}

export const roomOf = (c: Cap) => c.limit - c.used;

/** The cap that leaves the least room (the first of equals), or undefined with no cap. */
export function tightest(caps: Cap[]): Cap | undefined {
  return caps.reduce<Cap | undefined>(
    (best, c) => (best === undefined || roomOf(c) < roomOf(best) ? c : best),
    undefined,
  );
}

/**
 * The cap a collection run retried now gets (lib/runs/retry.ts): what it has used plus what its collection's
 * month has left, and no more than the collection's per-run cap, as a run started now would. Null fields:
 * keep the run's own (a run of no collection, or one whose collection is gone).
 */
export async function refreshedCap(
  tx: Tx,
  run: RunSpend,
): Promise<{ maxTokens: number | null; capNote: string | null } | null> {
  if (!run.collectionId) return null;
  await lockCollection(tx, run.collectionId);
  const c = await tx.collection.findUnique({
    where: { id: run.collectionId },
    select: { maxTokens: true, monthlyMaxTokens: true },
  });
  if (!c) return null;
  if (c.monthlyMaxTokens === null) return { maxTokens: c.maxTokens, capNote: null };
  const own = run.tokensCharged + run.tokensReserved;
  const left = Math.max(0, c.monthlyMaxTokens - (await monthUsage(tx, run.collectionId, run.createdAt)).used);
  const fromMonth = own + left;
  if (c.maxTokens !== null && c.maxTokens <= fromMonth) return { maxTokens: c.maxTokens, capNote: null };
  return {
    maxTokens: fromMonth,
    capNote: `the collection's monthly cap of ${c.monthlyMaxTokens} tokens leaves ${left} (${own} used by this run already)`,
  };
}
