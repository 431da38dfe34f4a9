import type { GuardContext } from "../../net";

// What every sink type implements, beside the webhook sender (../send.ts). A sink is opened once per
// destination and kept (./pool.ts): its connections are pooled, re-opened by the client or on the next
// delivery after the service restarts, and closed on shutdown.

/** One stored result as the sinks write it: the job's row in Tally's Result table. */
export type SinkResultRow = {
  itemKey: string;
  url: string | null;
  status: string;
  format: string;
  markdown: string | null;
  html: string | null;
  /** Parsed JSON (or the raw text when it was not JSON); null when none. */
  metadata: unknown;
  errorCode: string | null;
  errorMessage: string | null;
  tokensCharged: number;
  storedAt: Date;
};

/** The result table's columns the database sinks write (the documented DDL), in insert order. */
export const RESULT_COLUMNS = [
  "job_id",
  "item_key",
  "url",
  "status",
  "format",
  "markdown",
  "html",
  "metadata",
  "error_code",
  "error_message",
  "tokens_charged",
  "stored_at",
  "event_id",
] as const;

/** One result's values in RESULT_COLUMNS order (metadata as JSON text). */
export function resultValues(e: SinkEvent, r: SinkResultRow): unknown[] {
  return [
    e.jobId,
    r.itemKey,
    r.url,
    r.status,
    r.format,
    r.markdown,
    r.html,
    r.metadata === null ? null : JSON.stringify(r.metadata),
    r.errorCode,
    r.errorMessage,
    r.tokensCharged,
    r.storedAt,
    e.id,
  ];
}

/** One event as a sink receives it: its stable id, the webhook body, and for job.stored every result. */
export type SinkEvent = {
  /** The webhook-id: stable per job (or run) and outcome, the key that makes a re-delivery a no-op. */
  id: string;
  type: string;
  jobId: string;
  outcome: string;
  createdAt: Date;
  /** The JSON a webhook destination receives, with every result in data.results for job.stored. */
  body: string;
  /** job.stored: all of the job's results (not cut to TALLY_FORWARD_MAX_BYTES); otherwise null. */
  results: SinkResultRow[] | null;
};

export interface Sink {
  /**
   * Writes a batch: per event, in order, null once the sink durably accepted it (commit, confirm, ack,
   * 200) or the error that refused it. Rejects when the batch failed as a whole (the sink unreachable):
   * every event failed for that reason. A database writes the batch in one transaction, all or nothing.
   */
  deliverMany(events: SinkEvent[]): Promise<Array<Error | null>>;
  /** On save: connects and, for databases, creates or checks the table; throws with the sink's own reason. */
  check(): Promise<void>;
  /** Ends the connections; the sink is not used again. */
  close(): Promise<void>;
}

/** `guard`: the private-address rule on every connection the sink's client makes (./guard.ts). */
export type SinkOptions = { timeoutMs: number; guard?: GuardContext };

/** One event on its own: resolves once the sink accepted it, throws the sink's reason otherwise. */
export async function deliverOne(sink: Sink, event: SinkEvent): Promise<void> {
  const [err] = await sink.deliverMany([event]);
  if (err) throw err;
}

/** Anything a client rejects with, as an Error (its reason() is what an attempt records). */
export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/** The outcomes of promises started together: null for each that resolved, its error for each that did not. */
export async function outcomes(work: Promise<unknown>[]): Promise<Array<Error | null>> {
  const settled = await Promise.allSettled(work);
  return settled.map((s) => (s.status === "fulfilled" ? null : asError(s.reason)));
}

/**
 * Whether the database server itself refused a statement (a constraint, a type, a permission), as
 * opposed to not being reached: then writing the batch's events one by one tells the bad one apart.
 * pg's errors from the server carry a severity, mysql2's an SQLSTATE.
 */
export function refusedByServer(err: unknown): boolean {
  const e = err as { severity?: unknown; sqlState?: unknown } | null;
  return !!e && (typeof e.severity === "string" || typeof e.sqlState === "string");
}

/** Upsert statements stay well under the drivers' limits (PostgreSQL: 65,535 parameters; MySQL: a 16 MB packet). */
const CHUNK_ROWS = 1_000;
const CHUNK_CHARS = 2 * 1_048_576;

/** The rows of a batch in statement-sized chunks, each row once per (job_id, item_key): the last one wins. */
export function resultChunks(events: SinkEvent[]): unknown[][][] {
  const byKey = new Map<string, unknown[]>();
  for (const e of events)
    for (const r of e.results ?? []) byKey.set(JSON.stringify([e.jobId, r.itemKey]), resultValues(e, r));
  const chunks: unknown[][][] = [];
  let chunk: unknown[][] = [];
  let bytes = 0;
  for (const row of byKey.values()) {
    const size = row.reduce<number>((a, v) => a + (typeof v === "string" ? v.length : 8), 0);
    if (chunk.length > 0 && (chunk.length >= CHUNK_ROWS || bytes + size > CHUNK_CHARS)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(row);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/**
 * A database's batch: `write` puts it in one transaction. When the server refuses it, the events are
 * written one by one, so one bad event fails alone and the others are delivered; once two in a row
 * fail too, the server is taken to refuse them all (a table that takes no writes), and the rest fail
 * with that reason without a statement each, to be tried again on their next attempt.
 */
export async function writeBatch(
  events: SinkEvent[],
  write: (events: SinkEvent[]) => Promise<void>,
): Promise<Array<Error | null>> {
  try {
    await write(events);
    return events.map(() => null);
  } catch (err) {
    if (events.length === 1 || !refusedByServer(err)) throw err;
    const out: Array<Error | null> = [];
    let failing = 0;
    for (const e of events) {
      const failed: Error | null = failing >= 2 ? asError(err) : await write([e]).then(() => null, asError);
      failing = failed ? failing + 1 : 0;
      out.push(failed);
    }
    return out;
  }
}

/** The events a database keeps in `{table}_events`: those without results. */
export function plainEvents(events: SinkEvent[]): SinkEvent[] {
  return events.filter((e) => !e.results || e.results.length === 0);
}

/** The error message of anything a client throws, short and without a stack. */
export function reason(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return reason(err.errors[0]);
  const e = err as { message?: unknown; code?: unknown } | null;
  const message = e && typeof e.message === "string" && e.message ? e.message : String(err);
  const code = e && typeof e.code === "string" && !message.includes(e.code) ? ` (${e.code})` : "";
  return `${message}${code}`.replace(/\s+/g, " ").slice(0, 500);
}
