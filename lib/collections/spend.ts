import "server-only";
import type { DbOrTx } from "../queue";
import { monthUsage } from "../runs";

// A collection's spend (issue 39): the tokens its runs created this calendar month (UTC) were charged,
// and the cap a new run gets from the collection's per-run and monthly caps. The monthly cap is also
// checked and reserved by every chunk of its runs (lib/runs/caps.ts, issue 50): this cap is a run's start.

/** Tokens charged (and still reserved by chunks in flight) to the collection's runs created this month. */
export async function monthSpend(tx: DbOrTx, collectionId: string, now: Date): Promise<number> {
  return (await monthUsage(tx, collectionId, now)).used;
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
