import "server-only";
import { db } from "../db";
import { backoffMs, PermanentFailure, rescheduleIn, type HandlerContext, type Reschedule } from "../queue";
import type { JobKind } from "../platform";
import { addEvent, deadLetterJob, markCancelled } from "./outcomes";
import { getPlatformClient } from "../platform/shared-client";
import { asPlatformError } from "../platform/error-fields";
import { fetchState, stateUrl, type PlatformState } from "../platform/job-state";
import { isJobKind, KIND_FOR_EVENT } from "../platform/events";
import { asBacklog, withPurpose } from "../platform/purpose";
import { isBacklog, type ProcessJobPayload } from "./process-job";
import { resubmitJob } from "./resubmit";
import { storeCompleted } from "./store-results";

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

async function handleJob(p: ProcessJobPayload, ctx: HandlerContext, pageSize?: number): Promise<void | Reschedule> {
  const existing = await db().job.findUnique({ where: { id: p.jobId } });
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
  const job = await recordState(state, p, ctx.item.attempts, !existing?.url);

  switch (state.status) {
    case "completed":
      return withPurpose("result pages", () => storeCompleted(client, state, ctx.signal, pageSize));
    case "cancelled":
      await markCancelled(job.id);
      return;
    case "failed": {
      const error = state.error ?? { code: "UNKNOWN", message: "failed without an error object", retryable: false };
      if (error.retryable) return withPurpose("submit", () => resubmitJob(client, job, error, ctx.item, ctx.signal));
      await deadLetterJob(job.id, ctx.item, { code: error.code, message: error.message });
      return;
    }
    default:
      return rescheduleIn(backoffMs(job.attempts, NOT_SETTLED_BASE_MS, NOT_SETTLED_CAP_MS), `job is ${state.status}`);
  }
}

/** Upserts the Job row with what the platform says now, counts the attempt, and logs it on the timeline. */
async function recordState(state: PlatformState, p: ProcessJobPayload, queueAttempt: number, needsUrl: boolean) {
  const settled = state.status === "completed" || state.status === "failed" || state.status === "cancelled";
  const fields = {
    platformStatus: state.status,
    platformCreatedAt: new Date(state.createdAt),
    settledAt: settled ? new Date(state.completedAt ?? Date.now()) : null,
    errorCode: state.error?.code ?? null,
    errorMessage: state.error?.message ?? null,
    errorRetryable: state.error?.retryable ?? null,
    ...(p.source === "webhook" ? { lastWebhookAt: new Date() } : {}),
  };
  return db().$transaction(async (tx) => {
    const job = await tx.job.upsert({
      where: { id: state.jobId },
      create: { id: state.jobId, kind: state.kind, url: stateUrl(state), origin: p.source, attempts: 1, ...fields },
      // Rows made by replay/reconcile may lack the URL; the platform's document has it.
      update: { ...fields, attempts: { increment: 1 }, ...(needsUrl ? { url: stateUrl(state) } : {}) },
    });
    await addEvent(tx, job.id, "attempt", {
      source: p.source,
      deliveryId: p.deliveryId ?? undefined,
      queueAttempt,
      status: state.status,
    });
    return job;
  });
}
