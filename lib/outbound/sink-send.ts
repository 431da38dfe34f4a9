import "server-only";
import { parseMetadata } from "../results/rows";
import { db } from "../db";
import { BadRequest } from "../errors";
import type { GuardContext } from "../http/address-guard";
import { sinkConfigSchemas, type SinkType } from "./sink-config";
import { openSink, reason, sinkHostRefusal, type SinkEvent, type SinkResultRow } from "./sinks";
import { isOpen, sinkFor } from "./sinks/pool";
import type { SendResult } from "./send";

// Delivery to a sink, recorded like a webhook attempt: ok once the sink durably accepted the event,
// otherwise the sink's own reason. Bounded by TALLY_FORWARD_TIMEOUT_MS, so a sink that hangs holds one
// worker slot no longer than a webhook that hangs; a sink that is down fails fast and the outbox retries.

export type SinkDelivery = {
  destinationId: string;
  type: SinkType;
  config: string;
  eventId: string;
  eventType: string;
  jobId: string;
  outcome: string;
  createdAt: Date;
};

async function resultRows(jobId: string): Promise<SinkResultRow[]> {
  const rows = await db().result.findMany({ where: { jobId }, orderBy: { id: "asc" } });
  return rows.map((r) => ({
    itemKey: r.itemKey,
    url: r.url,
    status: r.status,
    format: r.format,
    markdown: r.markdown,
    html: r.html,
    metadata: parseMetadata(r.metadata),
    errorCode: r.errorCode,
    errorMessage: r.errorMessage,
    tokensCharged: r.tokensCharged,
    storedAt: r.createdAt,
  }));
}

/** The webhook body with every result in `data.results` (a webhook's may carry a resultsUrl instead). */
function withAllResults(body: string, results: SinkResultRow[]): string {
  const parsed = JSON.parse(body) as { data?: Record<string, unknown> };
  const data: Record<string, unknown> = { ...parsed.data, results };
  delete data.resultsUrl;
  return JSON.stringify({ ...parsed, data });
}

function within<T>(p: Promise<T>, ms: number, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    const abort = () => reject(new Error("aborted by shutdown"));
    signal.addEventListener("abort", abort, { once: true });
    p.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener("abort", abort);
    });
  });
}

export async function sendToSink(
  d: SinkDelivery,
  body: string,
  opts: { timeoutMs: number; signal: AbortSignal; guard: GuardContext },
): Promise<SendResult> {
  const started = Date.now();
  try {
    if (!isOpen(d.destinationId)) {
      const why = await sinkHostRefusal(d.type, sinkConfigSchemas[d.type].parse(JSON.parse(d.config)), opts.guard);
      if (why) return { ok: false, statusCode: null, error: `refused: ${why}`.slice(0, 500), latencyMs: 0 };
    }
    const sink = sinkFor(d.destinationId, d.type, d.config, opts.timeoutMs, opts.guard);
    const results = d.eventType === "job.stored" ? await resultRows(d.jobId) : null;
    const event: SinkEvent = {
      id: d.eventId,
      type: d.eventType,
      jobId: d.jobId,
      outcome: d.outcome,
      createdAt: d.createdAt,
      body: results ? withAllResults(body, results) : body,
      results,
    };
    await within(sink.deliver(event), opts.timeoutMs, opts.signal);
    return { ok: true, statusCode: null, error: null, latencyMs: Date.now() - started };
  } catch (err) {
    return { ok: false, statusCode: null, error: reason(err), latencyMs: Date.now() - started };
  }
}

/** On save: the host must be allowed, and the sink must connect and accept its table or target. 400 otherwise. */
export async function checkSink(type: SinkType, config: unknown, guard: GuardContext, timeoutMs: number) {
  const parsed = sinkConfigSchemas[type].parse(config);
  const why = await sinkHostRefusal(type, parsed, guard);
  if (why) throw new BadRequest(`Refused ${type} destination: ${why}`);
  const sink = openSink(type, parsed, { timeoutMs, guard });
  const never = new AbortController().signal;
  try {
    await within(sink.check(), timeoutMs, never);
  } catch (err) {
    throw new BadRequest(`The ${type} sink refused its config: ${reason(err)}`);
  } finally {
    await sink.close().catch(() => undefined);
  }
}
