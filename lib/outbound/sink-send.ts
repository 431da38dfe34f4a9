import "server-only";
import { z } from "zod";
import { bodyColumns, bodyColumnsShape, parseMetadata, resolveBodies, resultName } from "../results";
import { inList, readDb, sqlInt } from "../db";
import { BadRequest } from "../errors";
import type { GuardContext } from "../net";
import { sinkConfigSchemas, type SinkType } from "./sink-config";
import { openSink, reason, sinkHostRefusal, type SinkEvent, type SinkResultRow } from "./sinks";
import { isOpen, sinkFor } from "./sinks/pool";
import type { SendResult } from "./send";

// Delivery to a sink, recorded like a webhook attempt: ok once the sink durably accepted the event,
// otherwise the sink's own reason. A batch of one destination's events goes in one deliverMany, bounded
// as a whole by TALLY_FORWARD_TIMEOUT_MS, so a sink that hangs holds one worker slot no longer than a
// webhook that hangs; a sink that is down fails fast and the outbox retries.

/** The destination a batch goes to. */
export type SinkTarget = { destinationId: string; type: SinkType; config: string };

/** One event of a batch: its delivery row's facts, the body built for it and, for job.stored, every result. */
export type SinkDelivery = {
  eventId: string;
  eventType: string;
  jobId: string;
  outcome: string;
  createdAt: Date;
  body: string;
  results: SinkResultRow[] | null;
};

/** What an attempt records when the whole batch ran out of time (lib/outbound/sink-batch.ts shrinks the next one). */
export const BATCH_TIMED_OUT = "timed out after";

const resultRow = z.object({
  jobId: z.string(),
  itemKey: z.string(),
  url: z.string().nullable(),
  status: z.string(),
  format: z.string(),
  ...bodyColumnsShape,
  metadata: z.string().nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  tokensCharged: sqlInt,
  createdAt: z.coerce.date(),
});

/**
 * Every result of the batch's job.stored events, in one raw read (on readDb: stored before the outcome's
 * event), by job: what the sinks write, and the events' data.results (lib/outbound/event-body.ts); and
 * the jobs with a body that cannot be read back as stored (missing or corrupt in
 * the body store), each with the error naming the result: their events must not be sent.
 */
export async function readStoredResults(
  deliveries: Array<{ eventType: string; jobId: string }>,
): Promise<{ byJob: Map<string, SinkResultRow[]>; unreadable: Map<string, string> }> {
  const jobIds = [...new Set(deliveries.filter((d) => d.eventType === "job.stored").map((d) => d.jobId))];
  const byJob = new Map<string, SinkResultRow[]>();
  const unreadable = new Map<string, string>();
  if (jobIds.length === 0) return { byJob, unreadable };
  const rows = await readDb().$queryRaw`
    SELECT r."jobId", r."itemKey", r."url", r."status", r."format", ${bodyColumns("r")}, r."metadata", r."errorCode",
      r."errorMessage", r."tokensCharged", r."createdAt"
    FROM "Result" r WHERE ${inList('r."jobId"', jobIds)}
      AND (r."checkVerdict" IS NULL OR r."checkVerdict" = 'ok') -- a page a content check withheld is never sent (issue 39)
    ORDER BY r."jobId", r."id"`;
  for (const r of await resolveBodies(resultRow.array().parse(rows), resultName)) {
    // A body that cannot be read as stored is never written out empty: the job's event fails its
    // attempt naming it (sink-batch.ts), and is retried (the body may be restored) or dead-letters.
    if (r.bodyError !== null) {
      unreadable.set(r.jobId, r.bodyError);
      continue;
    }
    const list = byJob.get(r.jobId) ?? [];
    list.push({
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
    });
    byJob.set(r.jobId, list);
  }
  for (const jobId of unreadable.keys()) byJob.delete(jobId);
  return { byJob, unreadable };
}

function within<T>(p: Promise<T>, ms: number, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${BATCH_TIMED_OUT} ${ms} ms`)), ms);
    const abort = () => reject(new Error("aborted by shutdown"));
    signal.addEventListener("abort", abort, { once: true });
    p.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener("abort", abort);
    });
  });
}

/** Sends a batch to one sink; a result per delivery, in order. */
export async function sendToSink(
  target: SinkTarget,
  deliveries: SinkDelivery[],
  opts: { timeoutMs: number; signal: AbortSignal; guard: GuardContext },
): Promise<SendResult[]> {
  const started = Date.now();
  const all = (error: string, latencyMs: number): SendResult[] =>
    deliveries.map(() => ({ ok: false, statusCode: null, error, latencyMs }));
  try {
    if (!isOpen(target.destinationId)) {
      const config = sinkConfigSchemas[target.type].parse(JSON.parse(target.config));
      const why = await sinkHostRefusal(target.type, config, opts.guard);
      if (why) return all(`refused: ${why}`.slice(0, 500), 0);
    }
    const sink = sinkFor(target.destinationId, target.type, target.config, opts.timeoutMs, opts.guard);
    const events = deliveries.map((d): SinkEvent => ({
      id: d.eventId,
      type: d.eventType,
      jobId: d.jobId,
      outcome: d.outcome,
      createdAt: d.createdAt,
      body: d.body,
      results: d.results,
    }));
    const outcomes = await within(sink.deliverMany(events), opts.timeoutMs, opts.signal);
    const latencyMs = Date.now() - started;
    return outcomes.map((err) =>
      err
        ? { ok: false, statusCode: null, error: reason(err), latencyMs }
        : { ok: true, statusCode: null, error: null, latencyMs },
    );
  } catch (err) {
    return all(reason(err), Date.now() - started);
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
