import "server-only";
import { getConfig } from "../config";
import { db, transaction } from "../db";
import { guardFor } from "../net";
import { defineKind, releaseAll, rescheduleIn, type HandlerContext, type Reschedule } from "../queue";
import { decide, logGivenUp, writeAttempts, writeFinishes } from "./attempts";
import { loadDelivery, planDelivery, type Finish, type LoadedDelivery } from "./delivery";
import { buildEventBody } from "./event-body";
import { FORWARD_EVENT, forwardEventPayload, type ForwardEventPayload } from "./outbox";
import { sendEvent } from "./send";
import { batchLeaseMs, recordBatch, sendBatch, takeBatch } from "./sink-batch";
import { isSinkType } from "./sink-config";

// Sends one delivery (a webhook), or a batch of one sink's deliveries led by this one
// (lib/outbound/sink-batch.ts). Retries are bounded by time, not by count: a failure returns
// rescheduleIn (the queue gives the attempt back) with exponential backoff and jitter until retryUntil,
// and then the delivery becomes an outbound dead letter (status dead, on the Outbound page) and the item
// is done. A crash after sending and before recording sends the event again: same webhook-id, receivers
// dedupe.

/** The queue kind, registered in lib/worker/registry.ts. */
export function forwardEventKind() {
  return defineKind({ name: FORWARD_EVENT, schema: forwardEventPayload, handle: handleForwardEvent });
}

async function finish(f: Finish): Promise<void> {
  await transaction((tx) => writeFinishes(tx, [f]));
}

export async function handleForwardEvent(p: ForwardEventPayload, ctx: HandlerContext): Promise<void | Reschedule> {
  const d = await loadDelivery(p.deliveryId);
  if (!d) return;
  const plan = planDelivery(d, d.destination.enabled, Date.now());
  if (plan.kind === "settled") return;
  if (plan.kind === "finish") return finish(plan.finish);
  if (isSinkType(d.destination.type)) return forwardToSink(d, plan.retryUntil, ctx);

  const body = await buildEventBody(d, { inline: true });
  if (body === null) return finish({ deliveryId: d.id, status: "dead", lastError: `job ${d.jobId} not found` });
  const config = getConfig();
  const result = await sendEvent(d.destination.url, d.destination.secret, d.eventId, body, {
    timeoutMs: config.TALLY_FORWARD_TIMEOUT_MS,
    signal: ctx.signal,
    // The environment's destination is the deployer's choice; one registered at run time is guarded.
    guard: d.destination.source === "config" ? null : guardFor(config),
  });
  // Cut short by the worker's shutdown: not the destination's fault; the queue hands the item back.
  if (ctx.signal.aborted) throw new Error("forwarding aborted by shutdown");
  const now = Date.now();
  const decided = decide(
    [{ deliveryId: d.id, destinationId: d.destinationId, before: d.attempts, retryUntil: plan.retryUntil, result }],
    now,
  );
  await db().$transaction((tx) => writeAttempts(tx, decided, now));
  logGivenUp(decided);
  const [r] = decided;
  return r.status === "retrying" ? rescheduleIn(r.delayMs, `destination answered ${result.error}`) : undefined;
}

async function forwardToSink(d: LoadedDelivery, retryUntil: Date, ctx: HandlerContext): Promise<void | Reschedule> {
  const batch = await takeBatch(d, retryUntil, ctx.item, batchLeaseMs());
  try {
    const sent = await sendBatch(batch, ctx.signal);
    // Shutdown, or this item's lease lost: nothing recorded; the others are handed back at once.
    if (ctx.signal.aborted) throw new Error("forwarding aborted by shutdown");
    return await recordBatch(batch, sent);
  } catch (err) {
    await releaseAll(batch.held).catch(() => undefined);
    throw err;
  }
}
