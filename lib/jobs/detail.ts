import "server-only";
import { z } from "zod";
import { db } from "../db";
import { type BodyAudience, resolveBodies, resultName, type ResultPreview } from "../results";
import { getJob } from "./query";
import { timeline, type TimelineEntry } from "./timeline";

// One job for its detail page: the job itself (lib/jobs/query.ts getJob, which throws NotFound),
// every delivery that named it, its lineage both ways, its dead letters and the first results.
// Scraped content is cut to a preview size here so a 5 MB page never travels to the browser.

export const RESULTS_SHOWN = 20;
export const FAILED_ITEMS_SHOWN = 50;
export const PREVIEW_CHARS = 100_000;

export type { ResultPreview } from "../results";

export type JobDetail = {
  job: {
    id: string;
    kind: string;
    url: string | null;
    platformStatus: string;
    outcome: string;
    origin: string;
    attempts: number;
    chainDepth: number;
    resultCount: number;
    /** Items the platform returned for a stored job (one for an extract): stored with content, or failed. */
    items: { total: number; stored: number; failed: number };
    tokensCharged: number | null;
    error: { code: string | null; message: string | null; retryable: boolean | null } | null;
    createdAt: string;
    settledAt: string | null;
    outcomeAt: string | null;
  };
  resubmittedFrom: { id: string; outcome: string } | null;
  resubmittedAs: { id: string; outcome: string } | null;
  deadLetters: Array<{
    id: number;
    state: string;
    errorCode: string | null;
    errorMessage: string;
    resolution: string | null;
    createdAt: string;
  }>;
  timeline: TimelineEntry[];
  /**
   * `unavailable`: of the results shown, those with a body the body store did not answer for now
   * (issue 50): the page says so once, above them; nothing of theirs is changed.
   */
  results: { total: number; shown: ResultPreview[]; unavailable: number };
  /** The first failed items with their reasons (the rest: GET /api/jobs/{id}/results?status=failed). */
  failedItems: FailedItem[];
};

export type FailedItem = {
  id: number;
  itemKey: string;
  url: string | null;
  errorCode: string | null;
  errorMessage: string | null;
};

export const jobIdSchema = z.string().trim().min(1).max(200);

const cut = (s: string | null) => (s !== null && s.length > PREVIEW_CHARS ? s.slice(0, PREVIEW_CHARS) : s);
const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * GET /api/jobs/{id}: the job, its raw events and the same timeline the job's page shows (deliveries
 * that named the job included), built by the one function both use.
 */
export async function getJobWithTimeline(jobId: string) {
  const job = await getJob(jobId);
  const deliveries = await db().inboundDelivery.findMany({
    where: { jobId },
    orderBy: { id: "asc" },
    take: DELIVERIES_SHOWN,
  });
  return { ...job, timeline: timeline(job, deliveries) };
}

const DELIVERIES_SHOWN = 200;

export async function getJobDetail(jobId: string, audience: BodyAudience = {}): Promise<JobDetail> {
  const job = await getJob(jobId);
  const client = db();
  const items = job.items;
  const [deliveries, results, deadLetters, lineage, failedItems] = await Promise.all([
    client.inboundDelivery.findMany({ where: { jobId }, orderBy: { id: "asc" }, take: DELIVERIES_SHOWN }),
    client.result
      .findMany({ where: { jobId }, orderBy: { id: "asc" }, take: RESULTS_SHOWN })
      .then((rows) => resolveBodies(rows, resultName, { ...audience, unavailable: "report" })),
    client.deadLetter.findMany({ where: { jobId }, orderBy: { id: "asc" } }),
    client.job.findMany({
      where: { id: { in: [job.resubmittedFromId, job.resubmittedAsId].filter((v): v is string => v !== null) } },
      select: { id: true, outcome: true },
    }),
    items.failed === 0
      ? []
      : client.result.findMany({
          where: { jobId, status: "failed" },
          orderBy: { id: "asc" },
          take: FAILED_ITEMS_SHOWN,
          select: { id: true, itemKey: true, url: true, errorCode: true, errorMessage: true },
        }),
  ]);
  const total = results.length < RESULTS_SHOWN ? results.length : await client.result.count({ where: { jobId } });
  const linked = (id: string | null) => (id ? (lineage.find((j) => j.id === id) ?? { id, outcome: "unknown" }) : null);
  return {
    job: {
      id: job.jobId,
      kind: job.kind,
      url: job.url,
      platformStatus: job.status,
      outcome: job.outcome,
      origin: job.origin,
      attempts: job.attempts,
      chainDepth: job.chainDepth,
      resultCount: job.resultCount,
      items,
      tokensCharged: job.tokensCharged,
      error: job.error,
      createdAt: job.createdAt.toISOString(),
      settledAt: iso(job.settledAt),
      outcomeAt: iso(job.outcomeAt),
    },
    resubmittedFrom: linked(job.resubmittedFromId),
    resubmittedAs: linked(job.resubmittedAsId),
    deadLetters: deadLetters.map((d) => ({
      id: d.id,
      state: d.state,
      errorCode: d.errorCode,
      errorMessage: d.errorMessage,
      resolution: d.resolution,
      createdAt: d.createdAt.toISOString(),
    })),
    timeline: timeline(job, deliveries),
    results: {
      total,
      unavailable: results.filter((r) => r.bodyUnavailable === true).length,
      shown: results.map((r) => ({
        id: r.id,
        itemKey: r.itemKey,
        url: r.url,
        status: r.status,
        format: r.format,
        markdown: cut(r.markdown),
        html: cut(r.html),
        truncated: (r.markdown?.length ?? 0) > PREVIEW_CHARS || (r.html?.length ?? 0) > PREVIEW_CHARS,
        bodyError: r.bodyError,
        errorCode: r.errorCode,
        errorMessage: r.errorMessage,
        tokensCharged: r.tokensCharged,
        checkVerdict: r.checkVerdict,
        checkName: r.checkName,
        checkExcerpt: r.checkExcerpt,
      })),
    },
    failedItems,
  };
}
