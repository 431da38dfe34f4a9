import "server-only";
import { getConfig } from "../config";
import { db } from "../db";
import { queueHealth } from "./queue-health";
import { metrics } from "./registry";

// GET /api/metrics: shared state read from the database now, then the whole registry as text.

export async function scrapeMetrics(now = new Date()): Promise<{ contentType: string; body: string }> {
  const m = metrics();
  const client = db();
  const [groups, oldest, open, pending, behind, outbound, health, census] = await Promise.all([
    client.queueItem.groupBy({ by: ["state"], _count: { _all: true } }),
    client.queueItem.findFirst({
      where: { state: "ready", availableAt: { lte: now } },
      orderBy: { availableAt: "asc" },
      select: { availableAt: true },
    }),
    client.deadLetter.count({ where: { state: "open" } }),
    client.job.findFirst({ where: { outcome: "pending" }, orderBy: { createdAt: "asc" }, select: { createdAt: true } }),
    collectionScheduleBehind(now),
    outboundLag(now),
    queueHealth(now),
    client.bodyCensus.findUnique({ where: { id: 1 } }),
  ]);
  const byState: Record<string, number> = { ready: 0, leased: 0, done: 0, dead: 0 };
  for (const g of groups) byState[g.state] = g._count._all;
  for (const [state, n] of Object.entries(byState)) m.queueItems.set({ state }, n);
  m.queueOldestReadyAge.set(oldest ? Math.max(0, now.getTime() - oldest.availableAt.getTime()) / 1000 : 0);
  m.deadLettersOpen.set(open);
  m.budgetCallsPerSecond.set(getConfig().TALLY_API_RPS);
  m.jobsPendingOldestAge.set(pending ? Math.max(0, now.getTime() - pending.createdAt.getTime()) / 1000 : 0);
  m.collectionScheduleBehind.set(behind);
  // Destinations removed or disabled since the last scrape lose their series.
  m.outboundOldestUndelivered.reset();
  for (const d of outbound) m.outboundOldestUndelivered.set({ destination: d.id, type: d.type }, d.seconds);
  m.dbOldestTransactionAge.set(health?.oldestTransactionSeconds ?? 0);
  m.queueDeadRows.set(health?.queueDeadRows ?? 0);
  // The body store as the last sweep counted it (lib/bodies/sweep.ts): walking it at every scrape would not do.
  if (census) {
    m.bodyStoreObjects.set(census.objects);
    m.bodyStoreBytes.set(Number(census.storedBytes));
    m.bodyStoreSavedBytes.set(Math.max(0, Number(census.rowsBytes - census.distinctBytes)));
  }
  return { contentType: m.registry.contentType, body: await m.registry.metrics() };
}

/** Seconds the oldest tick not yet started has waited: a due nextRunAt, or a tick queued behind a run. */
async function collectionScheduleBehind(now: Date): Promise<number> {
  const [due, queued] = await Promise.all([
    db().collection.findFirst({
      where: { paused: false, nextRunAt: { lte: now } },
      orderBy: { nextRunAt: "asc" },
      select: { nextRunAt: true },
    }),
    db().collection.findFirst({
      where: { paused: false, queuedFor: { not: null } },
      orderBy: { queuedFor: "asc" },
      select: { queuedFor: true },
    }),
  ]);
  const since = Math.min(due?.nextRunAt?.getTime() ?? Infinity, queued?.queuedFor?.getTime() ?? Infinity);
  return Number.isFinite(since) ? Math.max(0, now.getTime() - since) / 1000 : 0;
}

/** Per enabled destination, the age of its oldest undelivered event; one indexed read per status. */
async function outboundLag(now: Date): Promise<Array<{ id: string; type: string; seconds: number }>> {
  const destinations = await db().destination.findMany({ where: { enabled: true }, select: { id: true, type: true } });
  return Promise.all(
    destinations.map(async ({ id, type }) => {
      const oldest = await Promise.all(
        ["pending", "retrying"].map((status) =>
          db().outboundDelivery.findFirst({
            where: { destinationId: id, status },
            orderBy: { createdAt: "asc" },
            select: { createdAt: true },
          }),
        ),
      );
      const since = Math.min(...oldest.map((o) => o?.createdAt.getTime() ?? Infinity));
      return { id, type, seconds: Number.isFinite(since) ? Math.max(0, now.getTime() - since) / 1000 : 0 };
    }),
  );
}
