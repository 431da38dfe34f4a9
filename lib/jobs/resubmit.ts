import "server-only";
import { getConfig } from "../config";
import { db, transaction } from "../db";
import type { Job } from "@/generated/prisma/client";
import type { ClaimedItem } from "../queue";
import type { JobError, PlatformClient } from "../platform";
import { addEvent, deadLetterJob, settleOutcome } from "./outcomes";
import { asPlatformError, isRejectedInput } from "../platform";
import { sendToPlatform, storedRequest, type Accepted, type SubmitRequest } from "./requests";
import { recordSubmission } from "./submit";

// Resubmission must not create two platform jobs when the worker dies between the platform's 202 and
// our commit (the queue item then runs again). We cannot make the POST and our write atomic, and the
// platform documents no idempotency key, so: (1) write an intent event BEFORE the POST; (2) a run that
// finds an intent but no resubmittedAsId does not resubmit blindly: it first looks on the platform for
// a job of the same kind and target, created since the intent and unknown to Tally, and adopts it;
// only when there is none does it submit again. Checking resubmittedAsId alone would not do: the crash
// window is exactly the one in which it is still empty.

const CLOCK_SKEW_MS = 5000;
const MAX_SEARCH_PAGES = 5;

const sameUrl = (a: string, b: string) => a.replace(/\/+$/, "").toLowerCase() === b.replace(/\/+$/, "").toLowerCase();

/** A job submitted since `since` that matches the request and Tally has no row for, oldest first. */
async function findOrphan(
  client: PlatformClient,
  req: SubmitRequest,
  since: number,
  signal: AbortSignal,
): Promise<Accepted | null> {
  const from = since - CLOCK_SKEW_MS;
  const call = { signal, purpose: "submit" as const };
  const filters = { start_date: new Date(from), page_size: 100, ...(req.kind === "batch" ? {} : { url: req.url }) };
  const pages =
    req.kind === "extract"
      ? client.listExtractJobs(filters, call)
      : req.kind === "batch"
        ? client.listBatchJobs(filters, call)
        : client.listCrawlJobs(filters, call);
  let seen = 0;
  for await (const page of pages) {
    const candidates = page.items.filter((j) => {
      if (Date.parse(j.created_at) < from) return false;
      if ("url" in j && typeof j.url === "string" && req.kind !== "batch") return sameUrl(j.url, req.url);
      return (
        req.kind === "batch" &&
        "accepted_urls" in j &&
        typeof j.accepted_urls === "number" &&
        j.accepted_urls <= req.urls.length
      );
    });
    const known = new Set(
      (await db().job.findMany({ where: { id: { in: candidates.map((c) => c.job_id) } }, select: { id: true } })).map(
        (r) => r.id,
      ),
    );
    const fresh = candidates
      .filter((c) => !known.has(c.job_id))
      .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
    if (fresh[0]) return { jobId: fresh[0].job_id, status: fresh[0].status };
    if (++seen >= MAX_SEARCH_PAGES) break;
  }
  return null;
}

/** Failed and retryable: submit the original request again and link the two jobs, within the chain cap. */
export async function resubmitJob(
  client: PlatformClient,
  job: Job,
  error: JobError,
  item: ClaimedItem,
  signal: AbortSignal,
): Promise<void> {
  if (job.resubmittedAsId) {
    // Recorded by an earlier run; only the outcome may be missing (it is written in the same
    // transaction, so this is belt and braces).
    await transaction((tx) => settleOutcome(tx, job.id, "resubmitted", {}, { newJobId: job.resubmittedAsId }));
    return;
  }
  const max = getConfig().TALLY_RESUBMIT_MAX_CHAIN;
  const why = `${error.code}: ${error.message}`;
  if (job.chainDepth >= max) {
    await deadLetterJob(job.id, item, {
      code: "RESUBMIT_CHAIN_CAP",
      message: `failed (${why}) after ${job.chainDepth} resubmissions (cap ${max})`,
    });
    return;
  }
  const req = storedRequest(job.kind, job.request);
  if (!req) {
    await deadLetterJob(job.id, item, {
      code: "NO_ORIGINAL_REQUEST",
      message: `failed (${why}); retryable, but no original request to resubmit`,
    });
    return;
  }

  const intent = await db().jobEvent.findFirst({
    where: { jobId: job.id, type: "resubmitted" },
    orderBy: { id: "asc" },
  });
  let accepted: Accepted | null = null;
  let how = "submitted";
  if (intent) {
    accepted = await findOrphan(client, req, intent.at.getTime(), signal);
    if (accepted) how = "adopted after an interrupted resubmission";
  } else {
    await addEvent(db(), job.id, "resubmitted", { phase: "intent", reason: why });
  }
  if (!accepted) {
    try {
      accepted = await sendToPlatform(client, req, signal);
    } catch (err) {
      const refused = asPlatformError(err);
      if (refused && isRejectedInput(refused)) {
        await deadLetterJob(job.id, item, {
          code: "RESUBMIT_REJECTED",
          message: `failed (${why}); the platform rejected the resubmission: ${refused.message}`,
        });
        return;
      }
      throw err; // transient: the queue retries, and the intent makes the next run look before it posts
    }
  }
  const newJob = accepted;
  await transaction(async (tx) => {
    await recordSubmission(tx, req, newJob, { resubmittedFromId: job.id, chainDepth: job.chainDepth + 1 });
    const settled = await settleOutcome(
      tx,
      job.id,
      "resubmitted",
      { resubmittedAsId: newJob.jobId },
      { newJobId: newJob.jobId },
    );
    if (!settled)
      await tx.job.updateMany({
        where: { id: job.id, resubmittedAsId: null },
        data: { resubmittedAsId: newJob.jobId },
      });
    await addEvent(tx, job.id, "resubmitted", { phase: "accepted", newJobId: newJob.jobId, how });
  });
}
