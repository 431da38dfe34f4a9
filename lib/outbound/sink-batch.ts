import "server-only";
import { getConfig } from "../config";
import { transaction } from "../db";
import { guardFor } from "../net";
import { PAGE_BODY_CHARS } from "../results";
import { ackAll, claimByDedupeKeys, rescheduleAll, rescheduleIn, type ClaimedItem, type Reschedule } from "../queue";
import { batchRows, dueRetries, pendingPage, type BatchRow, type Cursor } from "./batch-reads";
import { decide, logGivenUp, writeAttempts, writeFinishes, type Decided } from "./attempts";
import { planDelivery, type Finish, type LoadedDelivery } from "./delivery";
import { buildEventBodies } from "./event-body";
import { FORWARD_EVENT, forwardDedupeKey } from "./outbox";
import type { SendResult } from "./send";
import { isSinkType } from "./sink-config";
import { BATCH_TIMED_OUT, readStoredResults, sendToSink, type SinkTarget } from "./sink-send";

// Deliveries to a sink go in batches. Each keeps its own delivery row and queue item (retries,
// backoff, dead letters, replay and the Outbound page are per delivery); the worker claims one, and
// its handler takes up to SINK_BATCH - 1 other due items of the same destination with leases of their
// own (claimByDedupeKeys: never an item someone else holds), reads their rows, bodies and results in a
// few queries (within a budget of results and of body characters, sized in SQL first), hands them to the sink in one deliverMany, then in ONE transaction settles the items it
// still holds (acked, or rescheduled with backoff) and records their attempts. No transaction is open
// while the sink is written. A crash anywhere leaves the items leased until their lease expires, and
// they are sent again: once in effect, because every sink keys what it writes by the event id.

/** Deliveries handed to a sink at once: the claimed one and up to SINK_BATCH - 1 others. */
export const SINK_BATCH = 100;
/** A job.stored event carries every result of its job: a batch loads at most this many (one job may exceed it alone). */
const BATCH_RESULTS = 2_000;
/**
 * And at most this many characters of their bodies (markdown + html), read in SQL before the bodies
 * are: as much as an export page (PAGE_BODY_CHARS, 16 Mi), so 2,000 results of a few KB still go
 * together but not 100 events of 1 MiB pages; one job may exceed it alone.
 */
export const BATCH_BODY_CHARS = PAGE_BODY_CHARS;

type Row = Omit<BatchRow, "results" | "bodies">;

type Member = { delivery: Row; retryUntil: Date; item: ClaimedItem | null };

export type Batch = {
  target: SinkTarget;
  /** To send: the claimed delivery first (item null: the worker settles it), then the others. */
  members: Member[];
  /** Others that end without an attempt (retry window over). */
  finished: Array<{ finish: Finish; item: ClaimedItem }>;
  /** Others that need nothing more (delivered meanwhile, or gone): their items are acked. */
  settled: ClaimedItem[];
  /** Every other item held: given back if the batch fails before it is recorded. */
  held: ClaimedItem[];
};

/** How many go together: all of them, but a batch that timed out is tried again halved per attempt. */
function batchSize(primary: Row): number {
  if (!primary.lastError?.startsWith(BATCH_TIMED_OUT)) return SINK_BATCH;
  return Math.max(1, SINK_BATCH >> Math.min(primary.attempts, 16));
}

/** The lease of the other items: long enough for one batch (the sink's timeout) and its record. */
export function batchLeaseMs(): number {
  const config = getConfig();
  return Math.max(config.TALLY_LEASE_SECONDS * 1000, 2 * config.TALLY_FORWARD_TIMEOUT_MS);
}

/** The claimed delivery (to be sent, within `retryUntil`) and the others of its destination now due and free. */
export async function takeBatch(
  primary: LoadedDelivery,
  retryUntil: Date,
  claimed: ClaimedItem,
  leaseMs: number,
  bodyBudget = BATCH_BODY_CHARS,
): Promise<Batch> {
  const type = primary.destination.type;
  if (!isSinkType(type)) throw new Error(`destination ${primary.destinationId} is a ${type}, not a sink`);
  const target = { destinationId: primary.destinationId, type, config: primary.destination.config ?? "{}" };
  const batch: Batch = {
    target,
    members: [{ delivery: primary, retryUntil, item: null }],
    finished: [],
    settled: [],
    held: [],
  };
  const limit = batchSize(primary) - 1;
  if (limit <= 0) return batch;
  const now = new Date();
  const items = await claimOthers(primary, limit, `batch:${claimed.leaseOwner}`, leaseMs, now);
  if (items.length === 0) return batch;
  const rows = await batchRows(primary.destinationId, [primary.id, ...items.map((i) => i.deliveryId)]);
  const rowOf = new Map(rows.map((r) => [r.id, r]));
  let results = rowOf.get(primary.id)?.results ?? 0;
  let bodies = rowOf.get(primary.id)?.bodies ?? 0;
  const over: ClaimedItem[] = [];
  for (const { item, deliveryId } of items) {
    const row = rowOf.get(deliveryId);
    const plan = row ? planDelivery(row, true, now.getTime()) : ({ kind: "settled" } as const);
    if (!row || plan.kind === "settled") batch.settled.push(item);
    else if (plan.kind === "finish") batch.finished.push({ finish: plan.finish, item });
    else if (results + row.results > BATCH_RESULTS || bodies + row.bodies > bodyBudget) over.push(item);
    else {
      results += row.results;
      bodies += row.bodies;
      batch.members.push({ delivery: row, retryUntil: plan.retryUntil, item });
    }
  }
  // Past the results or bodies budget: handed back at once, their attempt not counted, for the next batch.
  if (over.length > 0) await rescheduleAll(over, 0);
  batch.held = items.map((i) => i.item).filter((i) => !over.includes(i));
  return batch;
}

/** Candidates read per page: more than the room left, as other batches may hold some of them. */
const PAGE_FACTOR = 2;
const MAX_PAGES = 4;

/**
 * Leases up to `limit` items of the destination's due deliveries: those waiting to be sent first
 * (oldest first), then retries whose backoff is over. Batches running side by side hold some of the
 * oldest; a few pages further on finds free ones.
 */
async function claimOthers(
  primary: Row,
  limit: number,
  owner: string,
  leaseMs: number,
  now: Date,
): Promise<Array<{ item: ClaimedItem; deliveryId: number }>> {
  const got: Array<{ item: ClaimedItem; deliveryId: number }> = [];
  const take = async (ids: number[]) => {
    const idOf = new Map(ids.map((id) => [forwardDedupeKey(id), id]));
    const items = await claimByDedupeKeys({
      kind: FORWARD_EVENT,
      dedupeKeys: [...idOf.keys()],
      owner,
      limit: limit - got.length,
      leaseMs,
      now,
    });
    for (const item of items) got.push({ item, deliveryId: idOf.get(item.dedupeKey ?? "") ?? 0 });
  };
  let after: Cursor | null = null;
  for (let page = 0; page < MAX_PAGES && got.length < limit; page++) {
    const size = PAGE_FACTOR * (limit - got.length);
    const pending = await pendingPage(primary.destinationId, primary.id, after, size, now);
    await take(pending.map((r) => r.id));
    if (pending.length < size) break;
    after = pending[pending.length - 1];
  }
  if (got.length < limit)
    await take(await dueRetries(primary.destinationId, primary.id, now, PAGE_FACTOR * (limit - got.length)));
  return got;
}

export type Sent = { member: Member; result: SendResult | null };

/** Builds the events and hands them to the sink; result null for an event whose job is gone. */
export async function sendBatch(batch: Batch, signal: AbortSignal): Promise<Sent[]> {
  const config = getConfig();
  const deliveries = batch.members.map((m) => m.delivery);
  // The results first: the bodies carry them all in data.results, and the sinks write them.
  const { byJob: results, unreadable } = await readStoredResults(deliveries);
  const bodies = await buildEventBodies(deliveries, { inline: false, results });
  // An event whose job has a body the store cannot give back as stored is not sent (never empty): it
  // fails this attempt with the error naming the result.
  const broken = (i: number) =>
    bodies[i] !== null && batch.members[i].delivery.eventType === "job.stored"
      ? unreadable.get(batch.members[i].delivery.jobId)
      : undefined;
  const ready = batch.members.flatMap((m, i) => {
    const body = bodies[i];
    const d = m.delivery;
    return body === null || broken(i) !== undefined
      ? []
      : [{ ...d, body, results: d.eventType === "job.stored" ? (results.get(d.jobId) ?? []) : null }];
  });
  const sent = await sendToSink(batch.target, ready, {
    timeoutMs: config.TALLY_FORWARD_TIMEOUT_MS,
    signal,
    guard: guardFor(config),
  });
  let next = 0;
  return batch.members.map((member, i) => {
    const error = broken(i);
    if (error !== undefined) return { member, result: { ok: false, statusCode: null, error, latencyMs: 0 } };
    return { member, result: bodies[i] === null ? null : sent[next++] };
  });
}

/**
 * One transaction: the other items settled first (only those still held are recorded: one whose lease
 * expired and was taken is its new holder's), then every attempt and finish. The claimed delivery's
 * own item is the worker's to settle: a Reschedule when it is to be retried.
 */
export async function recordBatch(batch: Batch, sent: Sent[]): Promise<void | Reschedule> {
  const now = Date.now();
  const gone = sent.filter((s) => s.result === null);
  const finished = [
    ...batch.finished,
    ...gone.map((s) => ({
      finish: {
        deliveryId: s.member.delivery.id,
        status: "dead" as const,
        lastError: `job ${s.member.delivery.jobId} not found`,
      },
      item: s.member.item,
    })),
  ];
  const decided = decide(
    sent.flatMap((s) =>
      s.result === null
        ? []
        : [
            {
              deliveryId: s.member.delivery.id,
              destinationId: s.member.delivery.destinationId,
              before: s.member.delivery.attempts,
              retryUntil: s.member.retryUntil,
              result: s.result,
            },
          ],
    ),
    now,
  );
  const itemOf = new Map(sent.map((s) => [s.member.delivery.id, s.member.item]));
  const retrying = new Map<number, ClaimedItem[]>();
  const done: ClaimedItem[] = [...batch.settled];
  for (const d of decided) {
    const item = itemOf.get(d.deliveryId);
    if (!item) continue;
    if (d.status === "retrying") retrying.set(d.delayMs, [...(retrying.get(d.delayMs) ?? []), item]);
    else done.push(item);
  }
  for (const f of finished) if (f.item) done.push(f.item);
  const recorded = await transaction(async (tx) => {
    const held = new Set(await ackAll(done, tx));
    for (const [delayMs, items] of retrying) for (const id of await rescheduleAll(items, delayMs, tx)) held.add(id);
    const mine = (deliveryId: number) => {
      const item = itemOf.get(deliveryId) ?? finished.find((f) => f.finish.deliveryId === deliveryId)?.item;
      return !item || held.has(item.id);
    };
    const attempts = decided.filter((d) => mine(d.deliveryId));
    await writeAttempts(tx, attempts, now);
    await writeFinishes(
      tx,
      finished.filter((f) => mine(f.finish.deliveryId)).map((f) => f.finish),
    );
    return attempts;
  });
  logGivenUp(recorded);
  const own: Decided | undefined = decided.find((d) => !itemOf.get(d.deliveryId));
  return own?.status === "retrying" ? rescheduleIn(own.delayMs, `destination answered ${own.result.error}`) : undefined;
}
