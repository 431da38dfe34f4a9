import "server-only";
import { afterCommit, db, transaction, type Tx } from "../db";
import type { ClaimedItem } from "../queue";
import { enqueueOutcomeEvents } from "../outbound";
import { countJobOutcome } from "../metrics";
// The runs' one hook into the pipeline, imported from its file rather than lib/runs/index.ts: runs
// build on jobs (they submit through lib/jobs), so the index would close an import cycle.
import { settleChunkJob } from "../runs";
import { insertEvent, setOutcomeOnce } from "./job-rows";

// A job's outcome is written at most once: every setter is an UPDATE … WHERE outcome = 'pending' and
// only the call that changed the row writes the timeline event or dead letter that goes with it, so
// a duplicate delivery, a replay or two racing workers record the outcome once.

export type Outcome = "pending" | "stored" | "resubmitted" | "dead_lettered" | "cancelled";
export type JobEventType = "submitted" | "attempt" | "poll" | "resubmitted" | "outcome" | "enqueued" | "note";

export async function addEvent(
  tx: Tx | ReturnType<typeof db>,
  jobId: string,
  type: JobEventType,
  detail?: unknown,
): Promise<void> {
  await insertEvent(tx, jobId, type, detail);
}

/**
 * Sets a final outcome if none is set yet; true when this call set it. `tx` must come from
 * transaction() (lib/db.ts): the outcome is counted in the metrics once it has committed.
 */
export async function settleOutcome(
  tx: Tx,
  jobId: string,
  outcome: Exclude<Outcome, "pending">,
  extra: { resultCount?: number; tokensCharged?: number | null; resubmittedAsId?: string } = {},
  detail: Record<string, unknown> = {},
): Promise<boolean> {
  const job = await setOutcomeOnce(tx, jobId, outcome, extra);
  if (!job) return false;
  await insertEvent(tx, jobId, "outcome", { outcome, ...detail });
  // The outbox: the outbound event commits with the outcome, or neither does.
  await enqueueOutcomeEvents(tx, jobId, outcome);
  // A run's URLs follow the outcome of the batch job that carried them, in this transaction. Runs
  // submit batch jobs only (lib/runs/submit.ts), and a resubmission keeps the kind.
  if (job.kind === "batch") await settleChunkJob(tx, jobId, outcome);
  // Counted once committed: a rolled-back outcome (the caller then retries) must not count twice.
  afterCommit(tx, () => countJobOutcome(job.kind, outcome, job.settledAt));
  return true;
}

export async function markCancelled(jobId: string): Promise<boolean> {
  return transaction((tx) => settleOutcome(tx, jobId, "cancelled"));
}

/** Dead-letters the job itself (not only the queue item): outcome dead_lettered plus an open DeadLetter. */
export async function deadLetterJob(
  jobId: string,
  item: ClaimedItem,
  error: { code: string; message: string },
): Promise<boolean> {
  return transaction(async (tx) => {
    const changed = await settleOutcome(tx, jobId, "dead_lettered", {}, { code: error.code, reason: error.message });
    if (changed) {
      await tx.deadLetter.create({
        data: {
          jobId,
          queueItemId: item.id,
          kind: item.kind,
          errorCode: error.code,
          errorMessage: error.message,
          attempts: item.attempts,
        },
      });
    }
    return changed;
  });
}
