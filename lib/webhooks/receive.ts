import "server-only";
import { getConfig } from "../config";
import { log } from "../log";
import { queueTraceContext, setSpanAttributes, traceparentOf, type Span } from "../tracing";
import { countDelivery } from "../metrics";
import { wakeWorkers } from "../queue";
import { isKnownEvent, parseEnvelope } from "./envelope";
import type { BodyRead } from "./read-body";
import { candidatesForAny, candidatesForKey, type Candidate, type CandidateGroup } from "./secrets";
import { type HeadersLike, verifyDelivery } from "../signing";
import { receiverStore, type LogRow } from "./store";

// The receiver's whole decision, framework-free: size, signature on the raw bytes, JSON, schema,
// event type, then one transaction (receipt + queue item + log row) before answering. It never
// calls the platform and never parses or stores the body of an unverified request.

export type Answer = { status: number; body: Record<string, string> };

export type Delivery = {
  /** Tally's subscription key from /webhooks/geonode/{key}; null on the shared path. */
  subscriptionKey: string | null;
  headers: HeadersLike;
  read: BodyRead;
  startedAt: number;
  /**
   * The receipt's span, handed over rather than made active (lib/webhooks/node-server.ts): the bare
   * receiver keeps AsyncLocalStorage out of its path. Without one, the active span (a Next route's).
   */
  span?: Span;
};

/** Decides, then counts the answer for /api/metrics (a throw is counted by the caller's 503). */
export async function receive(d: Delivery): Promise<Answer> {
  const answer = await decide(d);
  countDelivery(answer.status, answer.body.status, d.startedAt);
  return answer;
}

/** The receiver could not record the delivery and answers 503: counted as 5xx. */
export function countUnrecorded(startedAt: number): void {
  countDelivery(503, undefined, startedAt);
}

async function decide(d: Delivery): Promise<Answer> {
  const headerMeta = (c?: Candidate) => ({
    subscriptionId:
      c?.subscriptionId ?? (d.subscriptionKey && d.subscriptionKey.length <= 64 ? d.subscriptionKey : null),
    deliveryId: null as string | null,
    eventType: null as string | null,
    jobId: null as string | null,
  });
  const finish = async (
    answer: Answer,
    row: Omit<LogRow, "status" | "reason" | "latencyMs" | "bodyBytes">,
    reason: string,
  ) => {
    const bodyBytes = d.read.ok ? d.read.body.byteLength : d.read.size;
    await record({ ...row, status: answer.status, reason, latencyMs: Date.now() - d.startedAt, bodyBytes });
    return answer;
  };

  if (!d.read.ok) {
    return finish({ status: 413, body: { error: "payload_too_large" } }, headerMeta(), "body over the size limit");
  }
  const body = d.read.body;

  let groups: CandidateGroup[];
  if (d.subscriptionKey !== null) {
    const g = await candidatesForKey(d.subscriptionKey);
    if (g === "unknown") {
      return finish(
        { status: 404, body: { error: "unknown_subscription" } },
        { ...headerMeta(), subscriptionId: null },
        "unknown subscription key",
      );
    }
    if (g === "inactive") {
      return finish(
        { status: 410, body: { error: "inactive_subscription" } },
        { ...headerMeta(), subscriptionId: d.subscriptionKey },
        "inactive subscription",
      );
    }
    groups = [g];
  } else {
    groups = await candidatesForAny();
  }

  const now = Math.floor(Date.now() / 1000);
  let matched: Candidate | undefined;
  let failure = "no secret configured";
  for (const g of groups) {
    const result = verifyDelivery(
      g.scheme,
      g.candidates.map((c) => c.secret),
      body,
      d.headers,
      now,
    );
    if (result.ok) {
      matched = g.candidates[result.secretIndex];
      break;
    }
    failure = result.reason;
  }
  if (!matched) {
    return finish({ status: 401, body: { error: "invalid_signature" } }, headerMeta(), failure);
  }

  const parsed = parseEnvelope(body, d.headers);
  if (!parsed.ok) {
    return finish(
      { status: 400, body: { error: "bad_request", reason: parsed.reason } },
      headerMeta(matched),
      parsed.reason,
    );
  }
  const { jobId, deliveryId } = parsed.envelope;
  // A subscription is for one event type; it fills in a delivery that does not say which.
  const eventType = parsed.envelope.eventType ?? matched.eventType;
  const meta = { subscriptionId: matched.subscriptionId, deliveryId, eventType, jobId };
  // Ids only: the receipt span names the job and the delivery, never the body or the signature.
  const attributes = {
    "tally.job.id": jobId,
    "tally.receipt.source": "webhook",
    ...(eventType ? { "tally.webhook.event_type": eventType } : {}),
    ...(deliveryId ? { "tally.webhook.delivery_id": deliveryId } : {}),
    ...(matched.subscriptionId ? { "tally.subscription.id": matched.subscriptionId } : {}),
  };
  if (d.span) d.span.setAttributes(attributes);
  else setSpanAttributes(attributes);
  if (!eventType) {
    const reason = "no event type (expected event, event_type or X-Webhook-Event)";
    return finish({ status: 400, body: { error: "bad_request", reason } }, meta, reason);
  }
  if (!isKnownEvent(eventType)) {
    return finish({ status: 200, body: { status: "ignored" } }, meta, "unknown event type");
  }

  // Any failure here other than the job id's uniqueness (handled in SQL) throws: the platform
  // gets a 5xx and retries, which is what we want when nothing was stored.
  const outcome = await receiverStore().accept(
    {
      jobId,
      eventType,
      deliveryId,
      subscriptionId: matched.subscriptionId,
      maxAttempts: getConfig().TALLY_QUEUE_MAX_ATTEMPTS,
      // The queue item continues the receipt's trace (null with tracing off).
      traceContext: d.span ? traceparentOf(d.span) : queueTraceContext(),
    },
    { ...meta, latencyMs: Date.now() - d.startedAt, bodyBytes: body.byteLength },
  );
  // Committed: a worker in this process takes it now rather than at its next idle poll.
  if (outcome === "accepted") wakeWorkers();
  if (d.span) d.span.setAttribute("tally.receipt.outcome", outcome);
  else setSpanAttributes({ "tally.receipt.outcome": outcome });
  return { status: 200, body: { status: outcome } };
}

/** A request that never reached the decision (e.g. wrong method) still gets its log row. */
export async function recordRejected(
  subscriptionKey: string | null,
  status: number,
  reason: string,
  startedAt: number,
) {
  countDelivery(status, undefined, startedAt);
  await record({
    subscriptionId: subscriptionKey && subscriptionKey.length <= 64 ? subscriptionKey : null,
    deliveryId: null,
    eventType: null,
    jobId: null,
    status,
    reason,
    latencyMs: Date.now() - startedAt,
    bodyBytes: 0,
  });
}

async function record(row: LogRow) {
  try {
    await receiverStore().log(row);
  } catch (err) {
    // The answer does not depend on the log row; losing one is logged, not fatal.
    log.warn("inbound delivery log write failed", { status: row.status, error: String(err) });
  }
}
