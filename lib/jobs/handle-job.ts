import "server-only";
import { db, transaction } from "../db";
import {
  backoffMs,
  PermanentFailure,
  rescheduleIn,
  type AckedWithin,
  type HandlerContext,
  type Reschedule,
} from "../queue";
import type { JobKind } from "../platform";
import { addEvent, deadLetterJob, markCancelled } from "./outcomes";
import {
  asBacklog,
  asPlatformError,
  fetchState,
  getPlatformClient,
  isJobKind,
  KIND_FOR_EVENT,
  withPurpose,
} from "../platform";
import { isBacklog, type ProcessJobPayload } from "./process-job";
import { findJobHead, recordState, type Attempt } from "./job-rows";
import { resubmitJob } from "./resubmit";
import { storeCompleted } from "./store-results";
import { inSpan } from "../tracing";

// The process_job handler. The payload only says which job to look at: its state always comes from
// the platform, so a forged, stale or early webhook cannot make Tally store the wrong thing.

// "Not settled yet" waits grow with the job's attempts, capped: the item is never dropped.
const NOT_SETTLED_BASE_MS = 1000;
const NOT_SETTLED_CAP_MS = 2 * 60_000;
const NOT_FOUND_ATTEMPTS = 3;

export type JobHandlerOptions = {
  /** Result page size for batch and crawl (the platform allows up to 50). */
  resultPageSize?: number;
};

export function createJobHandler(opts: JobHandlerOptions = {}) {
  return (p: ProcessJobPayload, ctx: HandlerContext) =>
    isBacklog(p) ? asBacklog(() => handleJob(p, ctx, opts.resultPageSize)) : handleJob(p, ctx, opts.resultPageSize);
}

async function handleJob(
  p: ProcessJobPayload,
  ctx: HandlerContext,
  pageSize?: number,
): Promise<void | Reschedule | AckedWithin> {
  // Read with the claim on PostgreSQL (lib/queue/lease.ts), moments ago; a stale "pending" only costs a
  // fetch, since storing is conditional on the outcome still being pending.
  const existing = ctx.item.job !== undefined && ctx.item.jobId === p.jobId ? ctx.item.job : await findJobHead(p.jobId);
  if (existing && existing.outcome !== "pending") {
    // A duplicate, replayed or reconciled event for a finished job: nothing to fetch, nothing to do.
    await addEvent(db(), p.jobId, "note", { ignored: `${p.source} event; outcome already ${existing.outcome}` });
    return;
  }
  const kind: JobKind | undefined =
    (existing && isJobKind(existing.kind) ? existing.kind : undefined) ??
    p.kind ??
    (p.eventType ? KIND_FOR_EVENT[p.eventType] : undefined);
  if (!kind) throw new PermanentFailure("UNKNOWN_KIND", `job ${p.jobId}: no kind in the payload and no local record`);

  const client = getPlatformClient();
  const state = await withPurpose("worker refetch", () =>
    fetchState(client, kind, p.jobId, ctx.signal, pageSize),
  ).catch((err: unknown) => {
    // A job the platform does not know (a stale replay, a job id from another account): a few tries
    // in case the platform is slow to list it, then a dead letter instead of the full retry budget.
    if (asPlatformError(err)?.status === 404 && ctx.item.attempts >= NOT_FOUND_ATTEMPTS) {
      throw new PermanentFailure("PLATFORM_NOT_FOUND", `job ${p.jobId}: the platform does not know it`);
    }
    throw err;
  });
  const attempt: Attempt = {
    source: p.source,
    deliveryId: p.deliveryId,
    queueAttempt: ctx.item.attempts,
    needsUrl: !existing?.url,
  };
  // Completed: the attempt is recorded in the transaction that stores the result (an extract's).
  if (state.status === "completed")
    return withPurpose("result pages", () =>
      inSpan("store results", { attributes: { "tally.job.id": p.jobId, "tally.job.kind": kind } }, () =>
        storeCompleted(client, state, attempt, ctx.signal, pageSize, ctx.item),
      ),
    );
  const job = await transaction((tx) => recordState(tx, state, attempt));

  switch (state.status) {
    case "cancelled":
      await markCancelled(job.id);
      return;
    case "failed": {
      const error = state.error ?? { code: "UNKNOWN", message: "failed without an error object", retryable: false };
      if (error.retryable) {
        const row = await db().job.findUniqueOrThrow({ where: { id: job.id } });
        return withPurpose("submit", () => resubmitJob(client, row, error, ctx.item, ctx.signal));
      }
      await deadLetterJob(job.id, ctx.item, { code: error.code, message: error.message });
      return;
    }
    default:
      return rescheduleIn(backoffMs(job.attempts, NOT_SETTLED_BASE_MS, NOT_SETTLED_CAP_MS), `job is ${state.status}`);
  }
}
