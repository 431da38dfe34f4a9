import "server-only";
import { z } from "zod";
import { getConfig } from "../config";
import { db } from "../db";
import { lastReconciliation } from "../operations";
import { ledgerCounts, OUTCOMES, type LedgerOutcome } from "./ledger";
import { subscriptionAlerts } from "../subscriptions";
import type { Overview } from "./contracts";
import { slot } from "../runtime";

// The overview's figures in one call, built to stay fast at a million jobs: every figure is a COUNT
// over an index range (see ledger.ts for the job counts), never a GROUP BY that walks a whole index.
// Answers are shared for a moment: several open dashboards refreshing every few seconds cost one
// computation, not one each.

export { OUTCOMES, type LedgerOutcome };

/** Pending jobs by age since Tally first knew of them; the last buckets are the gaps to chase. */
export const PENDING_BUCKETS = [
  { key: "under5m", label: "< 5 min", fromMs: 0, toMs: 5 * 60_000 },
  { key: "5to60m", label: "5–60 min", fromMs: 5 * 60_000, toMs: 60 * 60_000 },
  { key: "1to24h", label: "1–24 h", fromMs: 60 * 60_000, toMs: 24 * 3_600_000 },
  { key: "over24h", label: "> 24 h", fromMs: 24 * 3_600_000, toMs: null },
] as const;

export type { Overview } from "./contracts";

const CACHE_MS = 1500;
const cache = slot<{ at: number; value: Promise<Overview> }>("overview");

/** The overview, computed at most once per CACHE_MS per process (concurrent callers share it). */
export function getOverview(): Promise<Overview> {
  const cached = cache.get();
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
  const value = computeOverview(new Date());
  cache.set({ at: Date.now(), value });
  value.catch(() => {
    if (cache.get()?.value === value) cache.clear();
  });
  return value;
}

const count = z.union([z.number(), z.bigint(), z.null()]).transform((v) => Number(v ?? 0));
const deliveryRow = z.object({ total: count, ok: count, unauthorized: count });

/** One pass over the last hour's rows on the receivedAt index (a GROUP BY status would walk the status index instead). */
async function lastHourDeliveries(since: Date) {
  const rows = await db().$queryRaw`
    SELECT COUNT(*) AS "total",
           SUM(CASE WHEN "status" >= 200 AND "status" < 300 THEN 1 ELSE 0 END) AS "ok",
           SUM(CASE WHEN "status" = 401 THEN 1 ELSE 0 END) AS "unauthorized"
      FROM "InboundDelivery" WHERE "receivedAt" >= ${since}`;
  return deliveryRow.array().length(1).parse(rows)[0] ?? { total: 0, ok: 0, unauthorized: 0 };
}

/** Queue figures from index ranges only: never a count of the (ever-growing) done items. */
async function queueFigures(now: Date): Promise<Overview["queue"]> {
  const q = db().queueItem;
  const [ready, leased, dead, dueNow, oldest, expiredLeases] = await Promise.all([
    q.count({ where: { state: "ready" } }),
    q.count({ where: { state: "leased" } }),
    q.count({ where: { state: "dead" } }),
    q.count({ where: { state: "ready", availableAt: { lte: now } } }),
    q.findFirst({
      where: { state: "ready", availableAt: { lte: now } },
      orderBy: { availableAt: "asc" },
      select: { availableAt: true },
    }),
    q.count({ where: { state: "leased", leaseExpiresAt: { lte: now } } }),
  ]);
  const oldestReadyAgeMs = oldest ? Math.max(0, now.getTime() - oldest.availableAt.getTime()) : null;
  return { ready, leased, dead, dueNow, oldestReadyAgeMs, expiredLeases };
}

export async function computeOverview(now: Date): Promise<Overview> {
  const client = db();
  const config = getConfig();
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const [ledger, pending, deliveries, deadLettersOpen, queue, lastRun, alerts] = await Promise.all([
    ledgerCounts(now),
    Promise.all(
      PENDING_BUCKETS.map((b) =>
        client.job.count({
          where: {
            outcome: "pending",
            createdAt: { lte: ago(b.fromMs), ...(b.toMs === null ? {} : { gt: ago(b.toMs) }) },
          },
        }),
      ),
    ),
    lastHourDeliveries(ago(3_600_000)),
    client.deadLetter.count({ where: { state: "open" } }),
    queueFigures(now),
    lastReconciliation(),
    subscriptionAlerts(config),
  ]);

  // The buckets partition "pending" on createdAt; a row created after `now` (clock skew) lands in the first.
  const pendingByAge = PENDING_BUCKETS.map((b, i) => ({ key: b.key, label: b.label, count: pending[i] ?? 0 }));
  const inBuckets = pendingByAge.reduce((s, b) => s + b.count, 0);
  if (pendingByAge[0]) pendingByAge[0].count += Math.max(0, ledger.byOutcome.pending - inBuckets);

  return {
    generatedAt: now.toISOString(),
    mode: config.mode,
    deliveryMode: config.TALLY_DELIVERY_MODE,
    ledger: {
      known: ledger.known,
      byOutcome: ledger.byOutcome,
      unaccounted: ledger.unaccounted,
      items: ledger.items,
      pendingByAge,
      pendingAlertMinutes: config.TALLY_PENDING_ALERT_MINUTES,
    },
    byPlatformStatus: ledger.byPlatformStatus.filter((s) => s.count > 0).sort((a, b) => b.count - a.count),
    queue,
    deliveries: {
      windowMinutes: 60,
      ...deliveries,
      successRate: deliveries.total === 0 ? null : deliveries.ok / deliveries.total,
    },
    deadLettersOpen,
    lastReconciliation: lastRun,
    subscriptionAlerts: alerts,
  };
}
