import "server-only";
import { db, transaction } from "../db";
import { Conflict, NotFound } from "../errors";
import { audit } from "../audit";
import { PlatformConflict, PlatformNotFound } from "../platform";
import { getPlatformClient } from "../platform";
import type { Cancelled } from "./contracts";
import { settleOutcome } from "./outcomes";

// Cancelling a job from the dashboard: the platform's cancel (DELETE /v1/batch|crawl/{job_id}, 202
// while queued or processing, 409 INVALID_STATE once finished), then the outcome `cancelled` in one
// transaction with its timeline event and outbound event. The platform has no cancel for extract jobs.

export type { Cancelled } from "./contracts";

export async function cancelJob(jobId: string, opts: { actor: string; signal?: AbortSignal }): Promise<Cancelled> {
  const job = await db().job.findUnique({ where: { id: jobId }, select: { id: true, kind: true, outcome: true } });
  if (!job) throw new NotFound(`No job ${jobId}`);
  if (job.outcome !== "pending") {
    throw new Conflict(
      `Job ${jobId} is already finished: its outcome is ${job.outcome.replace("_", " ")}. Only a queued or running job can be cancelled.`,
      { outcome: job.outcome },
    );
  }
  if (job.kind !== "batch" && job.kind !== "crawl") {
    throw new Conflict(
      `The platform cannot cancel ${job.kind} jobs (it cancels batch and crawl jobs only); this one will finish on its own.`,
      { kind: job.kind },
    );
  }
  const client = getPlatformClient();
  let accepted;
  try {
    accepted =
      job.kind === "batch"
        ? await client.cancelBatch(jobId, { signal: opts.signal })
        : await client.cancelCrawl(jobId, { signal: opts.signal });
  } catch (err) {
    if (err instanceof PlatformConflict) {
      await audit({
        actor: opts.actor,
        action: "job.cancel",
        target: jobId,
        ok: false,
        detail: { reason: "already finished on the platform" },
      });
      throw new Conflict(
        `The platform says job ${jobId} has already finished, so it cannot be cancelled; its outcome is recorded when the worker fetches it.`,
        { platform: err.message },
      );
    }
    if (err instanceof PlatformNotFound) throw new NotFound(`The platform does not know job ${jobId}`);
    throw err;
  }
  const inFlight = accepted.in_flight_urls ?? accepted.in_flight_pages ?? null;
  await transaction(async (tx) => {
    await tx.job.update({ where: { id: jobId }, data: { platformStatus: "cancelled" } });
    await settleOutcome(tx, jobId, "cancelled", {}, { by: opts.actor, ...(inFlight === null ? {} : { inFlight }) });
  });
  await audit({ actor: opts.actor, action: "job.cancel", target: jobId, detail: { kind: job.kind, inFlight } });
  const after = await db().job.findUniqueOrThrow({
    where: { id: jobId },
    select: { outcome: true, platformStatus: true },
  });
  // A worker that saw the job finish in the moment between the platform's answer and this commit
  // recorded that outcome first; the answer says what was kept.
  if (after.outcome !== "cancelled") {
    throw new Conflict(
      `Job ${jobId} finished before the cancel took effect: its outcome is ${after.outcome.replace("_", " ")}.`,
      { outcome: after.outcome },
    );
  }
  return { jobId, kind: job.kind, outcome: "cancelled", platformStatus: after.platformStatus, inFlight };
}
