import type { GuardContext } from "../../http/address-guard";

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
  /** Resolves only once the sink has durably accepted the event (commit, confirm, ack, 200); throws otherwise. */
  deliver(event: SinkEvent): Promise<void>;
  /** On save: connects and, for databases, creates or checks the table; throws with the sink's own reason. */
  check(): Promise<void>;
  /** Ends the connections; the sink is not used again. */
  close(): Promise<void>;
}

/** `guard`: the private-address rule on every connection the sink's client makes (./guard.ts). */
export type SinkOptions = { timeoutMs: number; guard?: GuardContext };

/** The error message of anything a client throws, short and without a stack. */
export function reason(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return reason(err.errors[0]);
  const e = err as { message?: unknown; code?: unknown } | null;
  const message = e && typeof e.message === "string" && e.message ? e.message : String(err);
  const code = e && typeof e.code === "string" && !message.includes(e.code) ? ` (${e.code})` : "";
  return `${message}${code}`.replace(/\s+/g, " ").slice(0, 500);
}
