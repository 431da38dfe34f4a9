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
import { failSpan, inSpan, linkTo, setSpanAttributes, SpanKind, type Link } from "../tracing";

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
  setSpanAttributes({
    "tally.outbound.delivery_id": d.id,
    "tally.outbound.event_type": d.eventType,
    "tally.destination.id": d.destinationId,
    "tally.destination.type": d.destination.type,
  });
  const plan = planDelivery(d, d.destination.enabled, Date.now());
  if (plan.kind === "settled") return;
  if (plan.kind === "finish") return finish(plan.finish);
  if (isSinkType(d.destination.type)) return forwardToSink(d, plan.retryUntil, ctx);

  const body = await buildEventBody(d, { inline: true });
  if (body === null) return finish({ deliveryId: d.id, status: "dead", lastError: `job ${d.jobId} not found` });
  const config = getConfig();
  // With tracing on, the POST is a client span whose traceparent goes out with the delivery (send.ts).
  const result = await inSpan(
    "POST webhook",
    { kind: SpanKind.CLIENT, attributes: { "http.request.method": "POST", "tally.outbound.event_id": d.eventId } },
    async (span) => {
      const r = await sendEvent(d.destination.url, d.destination.secret, d.eventId, body, {
        timeoutMs: config.TALLY_FORWARD_TIMEOUT_MS,
        signal: ctx.signal,
        // The environment's destination is the deployer's choice; one registered at run time is guarded.
        guard: d.destination.source === "config" ? null : guardFor(config),
      });
      if (r.statusCode !== null) span?.setAttribute("http.response.status_code", r.statusCode);
      if (span && !r.ok) failSpan(span, { code: r.statusCode === null ? "no_answer" : String(r.statusCode) });
      return r;
    },
  );
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
    // One span for the sink write, in this delivery's trace, linked to the traces of the others it carries.
    const links = batch.members.map((m) => linkTo(m.item?.traceContext ?? null)).filter((l): l is Link => !!l);
    const sent = await inSpan(
      `sink write ${batch.target.type}`,
      {
        kind: SpanKind.PRODUCER,
        links,
        attributes: { "tally.destination.type": batch.target.type, "tally.sink.events": batch.members.length },
      },
      async (span) => {
        const out = await sendBatch(batch, ctx.signal);
        const failed = out.filter((s) => s.result && !s.result.ok).length;
        span?.setAttribute("tally.sink.failed", failed);
        if (span && failed > 0) failSpan(span, { code: "sink_refused" });
        return out;
      },
    );
    // Shutdown, or this item's lease lost: nothing recorded; the others are handed back at once.
    if (ctx.signal.aborted) throw new Error("forwarding aborted by shutdown");
    return await recordBatch(batch, sent);
  } catch (err) {
    await releaseAll(batch.held).catch(() => undefined);
    throw err;
  }
}
