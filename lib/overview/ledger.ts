import "server-only";
import { z } from "zod";
import { Prisma } from "@/generated/prisma/client";
import { getConfig } from "../config";
import { db } from "../db";
import { singleton } from "../runtime";

// Counting a million jobs by outcome with GROUP BY walks the whole (outcome, createdAt) index, and
// again for platform status: ~250 ms on SQLite before anything else. Instead: one COUNT(*) for jobs
// known, a COUNT per minority value (each an index range: pending, resubmitted, dead-lettered and
// cancelled are small next to stored), range counts for values outside the known ones (which should
// be empty, and are cheap when they are), and the majority value by difference. The equation holds
// by construction; a job changing outcome between two counts moves one unit between two terms.

import { OUTCOMES, type LedgerOutcome } from "./contracts";

export { OUTCOMES, type LedgerOutcome };
export const PLATFORM_STATUSES = ["completed", "failed", "cancelled", "queued", "processing", "unknown"] as const;

type Field = "outcome" | "platformStatus";

/** Rows whose value is none of `known`: the ranges below, between and above the known values. */
async function countOthers(field: Field, known: readonly string[]): Promise<number> {
  const sorted = [...known].sort();
  const ranges: Prisma.StringFilter[] = [{ lt: sorted[0] }, { gt: sorted[sorted.length - 1] }];
  for (let i = 0; i + 1 < sorted.length; i++) ranges.push({ gt: sorted[i], lt: sorted[i + 1] });
  const counts = await Promise.all(ranges.map((r) => db().job.count({ where: { [field]: r } })));
  return counts.reduce((a, b) => a + b, 0);
}

/** Counts per value of `field`, the `majority` value derived from the total. */
async function split(field: Field, values: readonly string[], majority: string, known: number) {
  const minority = values.filter((v) => v !== majority);
  const [counts, others] = await Promise.all([
    Promise.all(minority.map((v) => db().job.count({ where: { [field]: v } }))),
    countOthers(field, values),
  ]);
  const out = new Map(minority.map((v, i) => [v, counts[i] ?? 0]));
  out.set(majority, Math.max(0, known - others - counts.reduce((a, b) => a + b, 0)));
  return { counts: out, others };
}

// Jobs are never deleted and get createdAt = now when inserted, so the count of jobs created before
// a watermark a minute in the past cannot change: it is counted once (one walk of an index, ~110 ms
// at a million rows) and reused for ten minutes; only the jobs since the watermark are counted live.
const WATERMARK_LAG_MS = 60_000;
const WATERMARK_TTL_MS = 10 * 60_000;
const knownBase = () => singleton("overview.knownBase", () => new Map<string, { before: number; count: number }>());

async function jobsKnown(now: Date): Promise<number> {
  const key = getConfig().DATABASE_URL;
  let base = knownBase().get(key);
  if (!base || now.getTime() < base.before || now.getTime() - base.before > WATERMARK_TTL_MS) {
    const before = now.getTime() - WATERMARK_LAG_MS;
    base = { before, count: await db().job.count({ where: { createdAt: { lt: new Date(before) } } }) };
    knownBase().set(key, base);
  }
  return base.count + (await db().job.count({ where: { createdAt: { gte: new Date(base.before) } } }));
}

// Items: a stored job carries its items (resultCount, one for an extract) and how many of them failed
// (itemsFailed), both written once, in the transaction that sets outcomeAt. So the same watermark
// works on outcomeAt: the sums over jobs settled before it cannot change (a dead letter sent back to
// pending held no items), are walked once on the covering (outcomeAt, resultCount, itemsFailed)
// index and kept ten minutes; the jobs settled since are summed live.
type ItemSums = { total: number; failed: number; jobsWithFailed: number };
const itemBase = () => singleton("overview.itemBase", () => new Map<string, { before: number; sums: ItemSums }>());

const sum = z.union([z.number(), z.bigint(), z.null()]).transform((v) => Number(v ?? 0));
const sumsRow = z.object({ total: sum, failed: sum, jobsWithFailed: sum });

/** One walk of the covering index over jobs settled before (`lt`) or since (`gte`) an instant. */
async function sumItems(range: { lt: Date } | { gte: Date }): Promise<ItemSums> {
  const where = "lt" in range ? Prisma.sql`"outcomeAt" < ${range.lt}` : Prisma.sql`"outcomeAt" >= ${range.gte}`;
  const rows = await db().$queryRaw`
    SELECT SUM("resultCount") AS "total", SUM("itemsFailed") AS "failed",
           SUM(CASE WHEN "itemsFailed" > 0 THEN 1 ELSE 0 END) AS "jobsWithFailed"
      FROM "Job" WHERE ${where}`;
  return sumsRow.array().length(1).parse(rows)[0] ?? { total: 0, failed: 0, jobsWithFailed: 0 };
}

export async function itemCounts(now: Date) {
  const key = getConfig().DATABASE_URL;
  let base = itemBase().get(key);
  if (!base || now.getTime() < base.before || now.getTime() - base.before > WATERMARK_TTL_MS) {
    const before = now.getTime() - WATERMARK_LAG_MS;
    base = { before, sums: await sumItems({ lt: new Date(before) }) };
    itemBase().set(key, base);
  }
  const live = await sumItems({ gte: new Date(base.before) });
  const total = base.sums.total + live.total;
  const failed = Math.min(total, base.sums.failed + live.failed);
  return { total, stored: total - failed, failed, jobsWithFailed: base.sums.jobsWithFailed + live.jobsWithFailed };
}

export async function ledgerCounts(now: Date) {
  const known = await jobsKnown(now);
  const [outcomes, statuses, items] = await Promise.all([
    split("outcome", OUTCOMES, "stored", known),
    split("platformStatus", PLATFORM_STATUSES, "completed", known),
    itemCounts(now),
  ]);
  const o = (k: LedgerOutcome) => outcomes.counts.get(k) ?? 0;
  const byOutcome: Record<LedgerOutcome, number> = {
    stored: o("stored"),
    resubmitted: o("resubmitted"),
    dead_lettered: o("dead_lettered"),
    cancelled: o("cancelled"),
    pending: o("pending"),
  };
  const byPlatformStatus: Array<{ status: string; count: number }> = PLATFORM_STATUSES.map((status) => ({
    status,
    count: statuses.counts.get(status) ?? 0,
  }));
  if (statuses.others > 0) byPlatformStatus.push({ status: "other", count: statuses.others });
  return { known, byOutcome, unaccounted: outcomes.others, byPlatformStatus, items };
}
