import "server-only";
import type { DeadLetter, Job } from "@/generated/prisma/client";
import { db, type Tx } from "../db";
import { addEvent, PROCESS_JOB, processJobItem, resubmitJob, storedRequest } from "../jobs";
import { getPlatformClient, isJobKind } from "../platform";
import { enqueue, type ClaimedItem } from "../queue";

// Retrying one dead letter depends on what died:
// - the JOB was dead-lettered (the platform said failed, not retryable; or the chain cap, or a
//   rejected resubmission): fetching it again would only fail again, so retry means RESUBMIT the
//   original request. We reuse lib/jobs's resubmitJob (intent event before the POST, adoption of
//   an orphan after a crash, links both ways). It settles only pending jobs, so the job is put back to
//   pending first, together with claiming the dead letter, and put back if the resubmission fails.
//   Re-enqueueing instead would not do: handle-job dead-letters a non-retryable failure again.
// - only the QUEUE ITEM died (attempts used up, e.g. the platform was unreachable) and the job is
//   still pending: enqueue process_job again under the job's dedupe key, as the receiver does.
// - anything else (another item kind, or no job row yet): revive the dead queue item as it was.

export type RetryResult = { result: string; message?: string; newJobId?: string };

const SOURCE = "retry" as const; // an operator asked for this job to be handled again

/** Claims the dead letter (open → retried); false when someone else changed it first. */
async function claim(tx: Tx, dl: DeadLetter, actor: string, resolution: string) {
  const { count } = await tx.deadLetter.updateMany({
    where: { id: dl.id, state: "open" },
    data: { state: "retried", resolution, resolvedBy: actor, resolvedAt: new Date() },
  });
  return count > 0;
}

export async function retryDeadLetter(id: number, actor: string): Promise<RetryResult> {
  const dl = await db().deadLetter.findUnique({ where: { id } });
  if (!dl || dl.state !== "open") return { result: "skipped", message: dl ? `already ${dl.state}` : "not found" };
  const job = dl.jobId ? await db().job.findUnique({ where: { id: dl.jobId } }) : null;
  try {
    if (job?.outcome === "dead_lettered") return await resubmit(dl, job, actor);
    if (job && job.outcome !== "pending") {
      const ok = await db().$transaction((tx) => claim(tx, dl, actor, `nothing to retry: job already ${job.outcome}`));
      return ok
        ? { result: "already_settled", message: `job already ${job.outcome}` }
        : { result: "skipped", message: "no longer open" };
    }
    if (job && dl.kind === PROCESS_JOB) return await requeue(dl, job, actor);
    return await revive(dl, actor);
  } catch (err) {
    return { result: "failed", message: err instanceof Error ? err.message : String(err) };
  }
}

async function requeue(dl: DeadLetter, job: Job, actor: string): Promise<RetryResult> {
  return db().$transaction(async (tx): Promise<RetryResult> => {
    if (!(await claim(tx, dl, actor, "queued again"))) return { result: "skipped", message: "no longer open" };
    const added = await enqueue(
      tx,
      processJobItem({ jobId: job.id, kind: isJobKind(job.kind) ? job.kind : null, source: SOURCE }),
    );
    // A live item for the job (a webhook or reconciliation got there first) will do the same work.
    if (!added) return { result: "already_queued" };
    await addEvent(tx, job.id, "enqueued", { by: actor, reason: `dead letter ${dl.id} retried` });
    return { result: "requeued" };
  });
}

async function revive(dl: DeadLetter, actor: string): Promise<RetryResult> {
  if (dl.queueItemId === null) return { result: "failed", message: "no job and no queue item to retry" };
  const queueItemId = dl.queueItemId;
  return db().$transaction(async (tx) => {
    if (!(await claim(tx, dl, actor, "queue item revived"))) return { result: "skipped", message: "no longer open" };
    const { count } = await tx.queueItem.updateMany({
      where: { id: queueItemId, state: "dead" },
      data: {
        state: "ready",
        attempts: 0,
        availableAt: new Date(),
        lastError: null,
        doneAt: null,
        leaseOwner: null,
        leaseExpiresAt: null,
      },
    });
    // Throwing rolls the claim back: the dead letter stays open.
    if (count === 0) throw new Error(`queue item ${queueItemId} is no longer dead`);
    return { result: "requeued" };
  });
}

async function resubmit(dl: DeadLetter, job: Job, actor: string): Promise<RetryResult> {
  if (!storedRequest(job.kind, job.request)) {
    return {
      result: "failed",
      message:
        "Tally has no original request for this job (it was not submitted by Tally), so it cannot be resubmitted",
    };
  }
  const client = getPlatformClient(); // throws in words when the platform is not configured
  const claimed = await db().$transaction(async (tx) => {
    if (!(await claim(tx, dl, actor, "resubmitting"))) return false;
    const { count } = await tx.job.updateMany({
      where: { id: job.id, outcome: "dead_lettered" },
      data: { outcome: "pending", outcomeAt: null },
    });
    if (count === 0) throw new Error("the job changed meanwhile; reload and try again");
    await addEvent(tx, job.id, "note", { deadLetter: dl.id, retriedBy: actor, action: "resubmit" });
    return true;
  });
  if (!claimed) return { result: "skipped", message: "no longer open" };

  // resubmitJob dead-letters the job again only through these paths, and records which item it
  // blamed; the dead letter's own item is the honest answer.
  const item: ClaimedItem = {
    id: dl.queueItemId ?? 0,
    kind: dl.kind,
    payload: "{}",
    jobId: job.id,
    dedupeKey: null,
    attempts: dl.attempts,
    maxAttempts: dl.attempts,
    leaseOwner: `operator:${actor}`,
    leaseExpiresAt: new Date(),
    traceContext: null,
  };
  const error = {
    code: job.errorCode ?? dl.errorCode ?? "UNKNOWN",
    message: job.errorMessage ?? dl.errorMessage,
    retryable: true,
  };
  try {
    // An operator's retry is a deliberate decision, so it is not held to the automatic chain cap:
    // the new job starts a fresh budget (its resubmittedFromId still links it to this one).
    await resubmitJob(client, { ...job, outcome: "pending", chainDepth: 0 }, error, item, AbortSignal.timeout(120_000));
  } catch (err) {
    await putBack(dl, job, actor);
    throw err;
  }
  const after = await db().job.findUnique({ where: { id: job.id }, select: { outcome: true, resubmittedAsId: true } });
  if (after?.outcome === "resubmitted" && after.resubmittedAsId) {
    await db().deadLetter.update({
      where: { id: dl.id },
      data: { resolution: `resubmitted as ${after.resubmittedAsId}` },
    });
    return { result: "resubmitted", newJobId: after.resubmittedAsId };
  }
  const again = await db().deadLetter.findFirst({ where: { jobId: job.id, state: "open" }, orderBy: { id: "desc" } });
  return {
    result: "failed",
    message: again ? `dead-lettered again: ${again.errorMessage}` : `job is ${after?.outcome ?? "gone"}`,
  };
}

/** The resubmission did not happen (platform unreachable…): the job and the dead letter go back as they were. */
async function putBack(dl: DeadLetter, job: Job, actor: string) {
  await db().$transaction(async (tx) => {
    await tx.job.updateMany({
      where: { id: job.id, outcome: "pending", resubmittedAsId: null },
      data: { outcome: "dead_lettered", outcomeAt: job.outcomeAt },
    });
    await tx.deadLetter.updateMany({
      where: { id: dl.id, state: "retried" },
      data: { state: "open", resolution: null, resolvedBy: null, resolvedAt: null },
    });
    await addEvent(tx, job.id, "note", {
      deadLetter: dl.id,
      retriedBy: actor,
      action: "resubmit failed; back to dead-lettered",
    });
  });
}
