import "server-only";
import { audit } from "../audit";
import { getConfig } from "../config";
import { db, type Tx } from "../db";
import type { SubmittedJob } from "./contracts";
import { getPlatformClient } from "../platform";
import { platformBody, sendToPlatform, targetUrl, type Accepted, type SubmitRequest } from "./requests";

export type { SubmittedJob } from "./contracts";

/** Submits an async job, then records it with its request so it can be resubmitted if it fails. */
export async function submitJob(
  req: SubmitRequest,
  opts: { signal?: AbortSignal; actor?: string } = {},
): Promise<SubmittedJob> {
  const accepted = await sendToPlatform(getPlatformClient(), req, opts.signal);
  const job = await db().$transaction((tx) => recordSubmission(tx, req, accepted));
  if (opts.actor)
    await audit({ actor: opts.actor, action: "job.submit", target: job.id, detail: { kind: req.kind, url: job.url } });
  return { jobId: job.id, kind: req.kind, status: job.platformStatus, outcome: job.outcome };
}

export type Lineage = { resubmittedFromId: string; chainDepth: number };

/**
 * Records a job Tally submitted (first time or as a resubmission). An upsert, because a fast job's
 * webhook can reach the worker before this runs, in which case the worker already created the row.
 */
export async function recordSubmission(tx: Tx, req: SubmitRequest, accepted: Accepted, lineage?: Lineage) {
  const config = getConfig();
  const now = Date.now();
  const polling = config.TALLY_DELIVERY_MODE !== "webhooks";
  const fields = {
    kind: req.kind,
    url: targetUrl(req),
    request: JSON.stringify(platformBody(req)),
    origin: "submitted",
    chainDepth: lineage?.chainDepth ?? 0,
    resubmittedFromId: lineage?.resubmittedFromId ?? null,
    // The polling scheduler picks these up; with webhooks only, the webhook (or reconciliation) will.
    nextPollAt: polling ? new Date(now + config.TALLY_POLL_INITIAL_MS) : null,
    pollDeadlineAt: polling ? new Date(now + config.TALLY_POLL_DEADLINE_MINUTES * 60_000) : null,
  };
  const job = await tx.job.upsert({
    where: { id: accepted.jobId },
    create: { id: accepted.jobId, platformStatus: accepted.status, ...fields },
    update: fields,
  });
  await tx.jobEvent.create({
    data: {
      jobId: job.id,
      type: "submitted",
      detail: JSON.stringify(
        lineage ? { resubmittedFrom: lineage.resubmittedFromId, chainDepth: lineage.chainDepth } : { kind: req.kind },
      ),
    },
  });
  return job;
}
