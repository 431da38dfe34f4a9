import "server-only";
import { getConfig } from "../config";
import { db, type Tx } from "../db";
import { Conflict, NotFound } from "../errors";
import { enqueue } from "../queue";
import { REPLAYABLE, type ReplayResult } from "./contracts";
import { forwardEventItem } from "./outbox";

// An operator sends failed events again now: a dead one gets a fresh retry window and a new queue
// item; one still retrying has its waiting item brought forward. The webhook-id stays the same, so a
// receiver that did get the event after all drops the copy.

const BATCH = 200;

/** Puts one delivery back in line; false when it is not failed (any more) or already being sent. */
async function replayOne(tx: Tx, id: number, now: Date): Promise<boolean> {
  const retryUntil = new Date(now.getTime() + getConfig().TALLY_FORWARD_RETRY_HOURS * 3_600_000);
  const { count } = await tx.outboundDelivery.updateMany({
    where: { id, status: { in: [...REPLAYABLE] }, destination: { enabled: true } },
    data: { status: "pending", retryUntil, nextAttemptAt: now, replays: { increment: 1 } },
  });
  if (count === 0) return false;
  // A replay is a trace of its own, linked to the operator's request (tracing on).
  const item = { ...forwardEventItem(id, now), trace: "link" as const };
  if (await enqueue(tx, item)) return true;
  // A live item exists (waiting on its backoff): due now.
  await tx.queueItem.updateMany({ where: { dedupeKey: item.dedupeKey, state: "ready" }, data: { availableAt: now } });
  return true;
}

export async function replayDelivery(deliveryId: number): Promise<ReplayResult> {
  const d = await db().outboundDelivery.findUnique({
    where: { id: deliveryId },
    include: { destination: { select: { enabled: true } } },
  });
  if (!d) throw new NotFound(`No outbound delivery ${deliveryId}`);
  if (!d.destination.enabled)
    throw new Conflict(`Destination ${d.destinationId} is disabled; enable it before replaying`);
  if (!REPLAYABLE.includes(d.status as (typeof REPLAYABLE)[number]))
    throw new Conflict(`Delivery ${deliveryId} is ${d.status}; only failed deliveries are replayed`);
  const ok = await db().$transaction((tx) => replayOne(tx, deliveryId, new Date()));
  return { replayed: ok ? 1 : 0, skipped: ok ? 0 : 1 };
}

/** Every failed delivery of a destination created since a time, in batches (one transaction each). */
export async function replayDestinationSince(destinationId: string, since: Date): Promise<ReplayResult> {
  const dest = await db().destination.findUnique({ where: { id: destinationId }, select: { enabled: true } });
  if (!dest) throw new NotFound(`No destination ${destinationId}`);
  if (!dest.enabled) throw new Conflict(`Destination ${destinationId} is disabled; enable it before replaying`);
  const result: ReplayResult = { replayed: 0, skipped: 0 };
  const startedAt = new Date();
  let after = 0;
  for (;;) {
    // Only rows created before the replay began: a delivery failing again meanwhile is not taken twice.
    const ids = await db().outboundDelivery.findMany({
      where: {
        destinationId,
        status: { in: [...REPLAYABLE] },
        createdAt: { gte: since, lte: startedAt },
        id: { gt: after },
      },
      orderBy: { id: "asc" },
      take: BATCH,
      select: { id: true },
    });
    if (ids.length === 0) return result;
    const now = new Date();
    const done = await db().$transaction(async (tx) => {
      let n = 0;
      for (const { id } of ids) if (await replayOne(tx, id, now)) n++;
      return n;
    });
    result.replayed += done;
    result.skipped += ids.length - done;
    after = ids[ids.length - 1].id;
  }
}
