import "server-only";
import { getConfig } from "../config";
import { db } from "../db";
import { queueStats } from "../queue/stats";
import { lastReconciliation, type LastRun } from "./last-run";
import { subscriptionAlerts, type SubscriptionAlert } from "./subscription-alerts";

// The overview's figures in one call. Every figure is a COUNT or GROUP BY served by an index
// (Job(outcome, createdAt), Job(platformStatus, createdAt), InboundDelivery(receivedAt) and
// (status, receivedAt), DeadLetter(state, createdAt), QueueItem(state, availableAt)), so the cost
// stays an index walk at a million jobs. Answers are shared for a moment: several open dashboards
// refreshing every few seconds cost one computation, not one each.

export const OUTCOMES = ["stored", "resubmitted", "dead_lettered", "cancelled", "pending"] as const;
export type LedgerOutcome = (typeof OUTCOMES)[number];

/** Pending jobs by age since Tally first knew of them; the last buckets are the gaps to chase. */
export const PENDING_BUCKETS = [
  { key: "under5m", label: "< 5 min", fromMs: 0, toMs: 5 * 60_000 },
  { key: "5to60m", label: "5–60 min", fromMs: 5 * 60_000, toMs: 60 * 60_000 },
  { key: "1to24h", label: "1–24 h", fromMs: 60 * 60_000, toMs: 24 * 3_600_000 },
  { key: "over24h", label: "> 24 h", fromMs: 24 * 3_600_000, toMs: null },
] as const;

export type Overview = {
  generatedAt: string;
  mode: "demo" | "live";
  deliveryMode: "webhooks" | "polling" | "both";
  ledger: {
    known: number;
    byOutcome: Record<LedgerOutcome, number>;
    /** Rows whose outcome is none of the five; should always be 0. */
    unaccounted: number;
    pendingByAge: Array<{ key: string; label: string; count: number }>;
    pendingAlertMinutes: number;
  };
  byPlatformStatus: Array<{ status: string; count: number }>;
  queue: { ready: number; leased: number; dead: number; dueNow: number; oldestReadyAgeMs: number | null; expiredLeases: number };
  deliveries: { windowMinutes: number; total: number; ok: number; unauthorized: number; successRate: number | null };
  deadLettersOpen: number;
  lastReconciliation: LastRun | null;
  subscriptionAlerts: SubscriptionAlert[];
};

const CACHE_MS = 1500;
const holder = globalThis as unknown as { __tallyOverview?: { at: number; value: Promise<Overview> } };

/** The overview, computed at most once per CACHE_MS per process (concurrent callers share it). */
export function getOverview(): Promise<Overview> {
  const cached = holder.__tallyOverview;
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
  const value = computeOverview(new Date());
  holder.__tallyOverview = { at: Date.now(), value };
  value.catch(() => {
    if (holder.__tallyOverview?.value === value) holder.__tallyOverview = undefined;
  });
  return value;
}

export async function computeOverview(now: Date): Promise<Overview> {
  const client = db();
  const config = getConfig();
  const hourAgo = new Date(now.getTime() - 3_600_000);
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const [outcomes, statuses, pending, deliveries, unauthorized, deadLettersOpen, queue, lastRun, alerts] = await Promise.all([
    client.job.groupBy({ by: ["outcome"], _count: { _all: true } }),
    client.job.groupBy({ by: ["platformStatus"], _count: { _all: true } }),
    Promise.all(
      PENDING_BUCKETS.map((b) =>
        client.job.count({
          where: { outcome: "pending", createdAt: { lte: ago(b.fromMs), ...(b.toMs === null ? {} : { gt: ago(b.toMs) }) } },
        }),
      ),
    ),
    client.inboundDelivery.groupBy({ by: ["status"], where: { receivedAt: { gte: hourAgo } }, _count: { _all: true } }),
    client.inboundDelivery.count({ where: { status: 401, receivedAt: { gte: hourAgo } } }),
    client.deadLetter.count({ where: { state: "open" } }),
    queueStats(now),
    lastReconciliation(),
    subscriptionAlerts(config),
  ]);

  const byOutcome: Record<LedgerOutcome, number> = { stored: 0, resubmitted: 0, dead_lettered: 0, cancelled: 0, pending: 0 };
  let known = 0;
  let unaccounted = 0;
  const isOutcome = (s: string): s is LedgerOutcome => s in byOutcome;
  for (const g of outcomes) {
    known += g._count._all;
    if (isOutcome(g.outcome)) byOutcome[g.outcome] = g._count._all;
    else unaccounted += g._count._all;
  }
  // The buckets partition "pending" on createdAt; a row created after `now` (clock skew) lands in the first.
  const pendingByAge = PENDING_BUCKETS.map((b, i) => ({ key: b.key, label: b.label, count: pending[i] ?? 0 }));
  const inBuckets = pendingByAge.reduce((s, b) => s + b.count, 0);
  if (pendingByAge[0]) pendingByAge[0].count += Math.max(0, byOutcome.pending - inBuckets);

  const total = deliveries.reduce((s, g) => s + g._count._all, 0);
  const ok = deliveries.filter((g) => g.status >= 200 && g.status < 300).reduce((s, g) => s + g._count._all, 0);

  return {
    generatedAt: now.toISOString(),
    mode: config.mode,
    deliveryMode: config.TALLY_DELIVERY_MODE,
    ledger: { known, byOutcome, unaccounted, pendingByAge, pendingAlertMinutes: config.TALLY_PENDING_ALERT_MINUTES },
    byPlatformStatus: statuses
      .map((g) => ({ status: g.platformStatus, count: g._count._all }))
      .sort((a, b) => b.count - a.count),
    queue: {
      ready: queue.byState.ready,
      leased: queue.byState.leased,
      dead: queue.byState.dead,
      dueNow: queue.dueNow,
      oldestReadyAgeMs: queue.oldestReadyAgeMs,
      expiredLeases: queue.expiredLeases,
    },
    deliveries: { windowMinutes: 60, total, ok, unauthorized, successRate: total === 0 ? null : ok / total },
    deadLettersOpen,
    lastReconciliation: lastRun,
    subscriptionAlerts: alerts,
  };
}
