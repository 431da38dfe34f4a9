import "server-only";
import { getConfig } from "../config";
import { db } from "../db";
import { log } from "../log";
import { backoffMs, defineKind, rescheduleIn, type HandlerContext, type Reschedule } from "../queue";
import { buildEventBody } from "./event-body";
import { FORWARD_EVENT, forwardEventPayload, type ForwardEventPayload } from "./outbox";
import { guardFor } from "../http/address-guard";
import { sendEvent, type SendResult } from "./send";
import { isSinkType } from "./sink-config";
import { sendToSink } from "./sink-send";

// Sends one delivery. Retries are bounded by time, not by count: a failure returns rescheduleIn (the
// queue gives the attempt back) with exponential backoff and jitter until retryUntil, and then the
// delivery becomes an outbound dead letter (status dead, on the Outbound page) and the item is done.
// A crash after sending and before recording sends the event again: same webhook-id, receivers dedupe.

/** The queue kind, registered in lib/worker/registry.ts. */
export function forwardEventKind() {
  return defineKind({ name: FORWARD_EVENT, schema: forwardEventPayload, handle: handleForwardEvent });
}

async function finish(deliveryId: number, data: { status: string; lastError?: string | null }) {
  await db().outboundDelivery.update({ where: { id: deliveryId }, data: { ...data, nextAttemptAt: null } });
}

export async function handleForwardEvent(p: ForwardEventPayload, ctx: HandlerContext): Promise<void | Reschedule> {
  const d = await db().outboundDelivery.findUnique({
    where: { id: p.deliveryId },
    include: {
      destination: { select: { type: true, url: true, config: true, enabled: true, secret: true, source: true } },
    },
  });
  if (!d || d.status === "delivered" || d.status === "skipped") return;
  if (!d.destination.enabled) return finish(d.id, { status: "skipped", lastError: "destination disabled; not sent" });
  const config = getConfig();
  // The window runs from the first attempt: an outbox that waited (workers down a day) still tries.
  const retryUntil =
    d.attempts === 0
      ? new Date(Math.max(d.retryUntil.getTime(), Date.now() + config.TALLY_FORWARD_RETRY_HOURS * 3_600_000))
      : d.retryUntil;
  if (Date.now() > retryUntil.getTime())
    return finish(d.id, { status: "dead", lastError: d.lastError ?? "retry window over" });

  const type = d.destination.type;
  const body = await buildEventBody(d, { inline: !isSinkType(type) });
  if (body === null) return finish(d.id, { status: "dead", lastError: `job ${d.jobId} not found` });
  const result = isSinkType(type)
    ? await sendToSink({ ...d, type, config: d.destination.config ?? "{}" }, body, {
        timeoutMs: config.TALLY_FORWARD_TIMEOUT_MS,
        signal: ctx.signal,
        guard: guardFor(config),
      })
    : await sendEvent(d.destination.url, d.destination.secret, d.eventId, body, {
        timeoutMs: config.TALLY_FORWARD_TIMEOUT_MS,
        signal: ctx.signal,
        // The environment's destination is the deployer's choice; one registered at run time is guarded.
        guard: d.destination.source === "config" ? null : guardFor(config),
      });
  // Cut short by the worker's shutdown: not the destination's fault; the queue hands the item back.
  if (ctx.signal.aborted) throw new Error("forwarding aborted by shutdown");
  return record(d.id, d.destinationId, d.attempts + 1, retryUntil, result);
}

async function record(
  deliveryId: number,
  destinationId: string,
  attempt: number,
  retryUntil: Date,
  r: SendResult,
): Promise<void | Reschedule> {
  const config = getConfig();
  const now = Date.now();
  const delay = backoffMs(attempt, config.TALLY_FORWARD_RETRY_INITIAL_MS, config.TALLY_FORWARD_RETRY_MAX_MS);
  const giveUp = !r.ok && now + delay > retryUntil.getTime();
  const status = r.ok ? "delivered" : giveUp ? "dead" : "retrying";
  await db().$transaction(async (tx) => {
    await tx.outboundAttempt.create({
      data: {
        deliveryId,
        destinationId,
        attempt,
        ok: r.ok,
        statusCode: r.statusCode,
        error: r.error,
        latencyMs: r.latencyMs,
      },
    });
    await tx.outboundDelivery.update({
      where: { id: deliveryId },
      data: {
        status,
        attempts: attempt,
        retryUntil,
        lastStatusCode: r.statusCode,
        lastLatencyMs: r.latencyMs,
        lastError: r.ok ? null : r.error,
        nextAttemptAt: status === "retrying" ? new Date(now + delay) : null,
        ...(r.ok ? { deliveredAt: new Date(now) } : {}),
      },
    });
  });
  if (giveUp)
    log.warn("outbound event dead-lettered: retry window over", {
      deliveryId,
      destinationId,
      attempts: attempt,
      error: r.error,
    });
  return status === "retrying" ? rescheduleIn(delay, `destination answered ${r.error}`) : undefined;
}
