import "server-only";
import { log } from "../log";
import { failSpan, inSpan, queueParent, SpanKind } from "../tracing";
import { ack, deadLetter, describeError, extendLease, reschedule, retry } from "./lease";
import { PermanentFailure, type Registry } from "./registry";
import type { ClaimedItem } from "./types";

export type ItemOutcome = "acked" | "rescheduled" | "retried" | "dead" | "lost" | "released";

export type RunItemOptions = {
  timeoutMs: number;
  /**
   * Keeps the lease while the handler runs, so an item may take longer than the lease: renewed for
   * leaseMs every everyMs (default a third of it). A crashed worker stops renewing and its items come
   * back within one lease. Losing the lease (another worker took the item) aborts the handler.
   */
  heartbeat?: { leaseMs: number; everyMs?: number };
  /** The worker's shutdown signal: aborts the handler like the timeout does. */
  signal?: AbortSignal;
  /** Called instead of retry() when the worker is shutting down and the handler was cut short. */
  onAbortedByShutdown?: (item: ClaimedItem) => Promise<boolean>;
  /** How a finished item is acked: a worker's group commit (ack-batch.ts); ack() on its own by default. */
  ack?: (item: ClaimedItem) => Promise<boolean>;
};

// A wait the callee asked for (the platform's 429 Retry-After) or an outage of the platform itself
// (its client has paused every call) is not the item's fault: the item waits without spending an attempt.
function askedToWait(err: unknown): number | null {
  if (err instanceof Error && "retryAfterMs" in err && typeof err.retryAfterMs === "number") return err.retryAfterMs;
  if (err instanceof Error && "platformDownMs" in err && typeof err.platformDownMs === "number")
    return err.platformDownMs;
  return null;
}

/**
 * Runs one claimed item through its registered kind and settles its lease: ack, reschedule, retry
 * with backoff, or dead letter. Never throws for anything the handler does.
 *
 * With tracing on, in a span `process <kind>` (lib/tracing): the first attempt of an item continues the
 * trace that queued it (the context in its row); a retry, a reschedule, a replay or a reconciliation
 * starts a trace of its own linked back. The settling (retry, reschedule) happens inside the span, so
 * the next attempt links to this one.
 */
export function runItem(registry: Registry, item: ClaimedItem, opts: RunItemOptions): Promise<ItemOutcome> {
  return inSpan(
    `process ${item.kind}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        "messaging.system": "tally.queue",
        "messaging.operation.type": "process",
        "messaging.destination.name": item.kind,
        "messaging.message.id": String(item.id),
        "tally.queue.attempt": item.attempts,
        ...(item.jobId ? { "tally.job.id": item.jobId } : {}),
      },
      ...queueParent(item.traceContext, item.attempts),
    },
    async (span) => {
      const outcome = await runClaimed(registry, item, opts);
      // At debug level, a line per item settled (with tracing on it carries the item's trace_id).
      log.debug("queue item settled", { queueItemId: item.id, kind: item.kind, jobId: item.jobId, outcome });
      if (span) {
        span.setAttribute("tally.queue.outcome", outcome);
        if (outcome === "retried" || outcome === "dead") failSpan(span, { name: outcome });
      }
      return outcome;
    },
  );
}

async function runClaimed(registry: Registry, item: ClaimedItem, opts: RunItemOptions): Promise<ItemOutcome> {
  const settle = async (ok: Promise<boolean>, outcome: ItemOutcome): Promise<ItemOutcome> =>
    (await ok) ? outcome : "lost";
  // Every line about this item carries its id, kind and job (a child logger per queue item).
  const itemLog = log.child({ queueItemId: item.id, kind: item.kind, jobId: item.jobId });
  const def = registry.get(item.kind);
  if (!def)
    return settle(
      deadLetter(item, { code: "UNKNOWN_KIND", message: `no handler registered for "${item.kind}"` }),
      "dead",
    );
  // Claims count attempts, so this is an item whose lease kept expiring (its worker died each time).
  if (item.attempts > item.maxAttempts) {
    return settle(
      deadLetter(item, {
        code: "LEASE_EXPIRED",
        message: `lease expired ${item.attempts - 1} times; the worker never finished it`,
      }),
      "dead",
    );
  }
  let payload: unknown;
  try {
    payload = def.schema.parse(JSON.parse(item.payload));
  } catch (err) {
    return settle(
      deadLetter(item, { code: "BAD_PAYLOAD", message: `payload rejected: ${describeError(err).message}` }),
      "dead",
    );
  }

  // One controller per item, linked to the worker's long-lived shutdown signal by a listener that
  // is removed afterwards: AbortSignal.any() on a long-lived signal leaks a dependant per call on
  // Node 20, which a worker running millions of items would feel.
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const controller = new AbortController();
  const abort = () => controller.abort();
  timeout.addEventListener("abort", abort, { once: true });
  opts.signal?.addEventListener("abort", abort, { once: true });
  if (opts.signal?.aborted) controller.abort();
  const signal = controller.signal;
  let lost = false;
  const stopHeartbeat = opts.heartbeat
    ? startHeartbeat(item, opts.heartbeat, () => {
        lost = true;
        controller.abort();
      })
    : () => {};
  try {
    // The handler is awaited, not raced: once aborted it stops at its next call, and the lease (renewed
    // by the heartbeat until then) is still ours, so no one else runs the item meanwhile.
    const result = await def.handle(payload, { item, signal });
    // Acked with the work: the lease was ours when it committed, whatever a heartbeat saw after.
    if (result && "ackedWithin" in result) return result.ackedWithin ? "acked" : "lost";
    if (lost) return "lost";
    if (result) return settle(reschedule(item, result.reschedule.delayMs), "rescheduled");
    return settle((opts.ack ?? ack)(item), "acked");
  } catch (err) {
    if (lost) {
      itemLog.warn("queue item's lease was taken over; left to its new holder");
      return "lost";
    }
    if (opts.signal?.aborted && !timeout.aborted && opts.onAbortedByShutdown) {
      return settle(opts.onAbortedByShutdown(item), "released");
    }
    const wait = askedToWait(err);
    if (wait !== null) return settle(reschedule(item, wait), "rescheduled");
    if (err instanceof PermanentFailure)
      return settle(deadLetter(item, { code: err.code, message: err.message }), "dead");
    const error = timeout.aborted ? new Error(`timed out after ${opts.timeoutMs} ms`) : err;
    itemLog.warn("queue item failed", { attempt: item.attempts, error: describeError(error).message });
    const r = await retry(item, error);
    return r === "retried" ? "retried" : r;
  } finally {
    stopHeartbeat();
    timeout.removeEventListener("abort", abort);
    opts.signal?.removeEventListener("abort", abort);
  }
}

/** Renews the item's lease on a timer until stopped; calls onLost once if the lease is gone. */
function startHeartbeat(item: ClaimedItem, hb: { leaseMs: number; everyMs?: number }, onLost: () => void): () => void {
  let busy = false;
  const timer = setInterval(
    () => {
      if (busy) return;
      busy = true;
      extendLease(item, hb.leaseMs)
        .then((held) => {
          if (held) return;
          clearInterval(timer);
          onLost();
        })
        // A missed beat (say, the database busy for a moment) is not fatal: the lease has time left.
        .catch((err) => log.warn("lease renewal failed; trying again", { id: item.id, error: String(err) }))
        .finally(() => (busy = false));
    },
    hb.everyMs ?? Math.max(10, Math.floor(hb.leaseMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}
