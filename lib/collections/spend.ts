import "server-only";
import type { DbOrTx } from "../queue";

// A collection's spend (issue 39): the tokens its runs created this calendar month (UTC) were charged,
// and the cap a new run gets from the collection's per-run and monthly caps.

export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** Tokens charged (and still reserved by chunks in flight) to the collection's runs created this month. */
export async function monthSpend(tx: DbOrTx, collectionId: string, now: Date): Promise<number> {
  const agg = await tx.run.aggregate({
    where: { collectionId, createdAt: { gte: monthStart(now) } },
    _sum: { tokensCharged: true, tokensReserved: true },
  });
  return (agg._sum.tokensCharged ?? 0) + (agg._sum.tokensReserved ?? 0);
}

/** The cap of a run the collection starts now: its per-run cap and what is left of the month's, whichever is lower. */
export async function runCap(
  tx: DbOrTx,
  c: { id: string; maxTokens: number | null; monthlyMaxTokens: number | null },
  now: Date,
): Promise<{ maxTokens: number | null; monthLeft: number | null }> {
  if (c.monthlyMaxTokens === null) return { maxTokens: c.maxTokens, monthLeft: null };
  const left = Math.max(0, c.monthlyMaxTokens - (await monthSpend(tx, c.id, now)));
  return { maxTokens: c.maxTokens === null ? left : Math.min(c.maxTokens, left), monthLeft: left };
}
