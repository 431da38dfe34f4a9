import "server-only";
import { db } from "../db";
import type { QueueState } from "./types";

export type QueueStats = {
  byState: Record<QueueState, number>;
  /** Ready items whose time has come (the backlog); the rest of "ready" are waiting on a backoff. */
  dueNow: number;
  /** Age of the oldest due item: how far behind the workers are. */
  oldestReadyAgeMs: number | null;
  expiredLeases: number;
};

/** Queue depth for the dashboard; index-backed counts, no table scan over payloads. */
export async function queueStats(now = new Date()): Promise<QueueStats> {
  const client = db();
  const [groups, dueNow, oldest, expiredLeases] = await Promise.all([
    client.queueItem.groupBy({ by: ["state"], _count: { _all: true } }),
    client.queueItem.count({ where: { state: "ready", availableAt: { lte: now } } }),
    client.queueItem.findFirst({
      where: { state: "ready", availableAt: { lte: now } },
      orderBy: { availableAt: "asc" },
      select: { availableAt: true },
    }),
    client.queueItem.count({ where: { state: "leased", leaseExpiresAt: { lte: now } } }),
  ]);
  const byState: Record<QueueState, number> = { ready: 0, leased: 0, done: 0, dead: 0 };
  const isState = (s: string): s is QueueState => s in byState;
  for (const g of groups) if (isState(g.state)) byState[g.state] = g._count._all;
  return {
    byState,
    dueNow,
    oldestReadyAgeMs: oldest ? Math.max(0, now.getTime() - oldest.availableAt.getTime()) : null,
    expiredLeases,
  };
}
