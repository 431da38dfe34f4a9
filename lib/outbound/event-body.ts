import "server-only";
import { parseMetadata, resolveBodies, resultName, type ResultItem } from "../results";
import { z } from "zod";
import { getConfig } from "../config";
import { db, inList, readDb, sqlInt } from "../db";

// The event body, built when it is sent from rows that no longer change (the job's stored results,
// its dead letter), so every attempt and every replay of an event sends the same bytes but the
// webhook-timestamp. `data.outcome` is the event's outcome, not whatever the job says by now.

export type EventSource = { eventType: string; jobId: string; outcome: string; createdAt: Date };

// Drivers return counts and sums as number, bigint or (PostgreSQL numeric) string; NULL when no rows.
const sizeRow = z.object({ n: z.coerce.number(), chars: z.coerce.number() });

/** The results inline when their JSON fits in maxBytes; undefined when it does not. */
export async function inlineResults(jobId: string, maxBytes: number): Promise<ResultItem[] | undefined> {
  // Text lengths (and kept bodies' sizes) are a lower bound of the encoded size: a job that is surely
  // too big is never loaded.
  const [size] = sizeRow.array().parse(
    await db().$queryRaw`
    SELECT COUNT(*) AS "n",
      SUM(COALESCE("markdownSize", LENGTH("markdown"), 0) + COALESCE("htmlSize", LENGTH("html"), 0)
        + COALESCE(LENGTH("metadata"), 0)) AS "chars"
    FROM "Result" WHERE "jobId" = ${jobId}`,
  );
  if (size && size.chars > maxBytes) return undefined;
  // A page a content check withheld (issue 39) is not part of the event.
  const rows = await resolveBodies(
    await db().result.findMany({
      where: { jobId, OR: [{ checkVerdict: null }, { checkVerdict: "ok" }] },
      orderBy: { id: "asc" },
    }),
    resultName,
  );
  const items = rows.map((r): ResultItem => ({
    itemKey: r.itemKey,
    url: r.url,
    status: r.status,
    format: r.format,
    markdown: r.markdown,
    html: r.html,
    bodyError: r.bodyError,
    metadata: parseMetadata(r.metadata),
    errorCode: r.errorCode,
    errorMessage: r.errorMessage,
    tokensCharged: r.tokensCharged,
    createdAt: r.createdAt.toISOString(),
  }));
  return Buffer.byteLength(JSON.stringify(items)) <= maxBytes ? items : undefined;
}

const jobRow = z.object({
  id: z.string(),
  kind: z.string(),
  url: z.string().nullable(),
  resultCount: sqlInt,
  tokensCharged: sqlInt.nullable(),
  resubmittedFromId: z.string().nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
});
type JobRow = z.infer<typeof jobRow>;

/** The jobs of many events in one raw read (Prisma's findMany cost more than building the bodies). */
async function jobsOf(ids: string[]): Promise<JobRow[]> {
  if (ids.length === 0) return [];
  const rows = await readDb().$queryRaw`
    SELECT "id", "kind", "url", "resultCount", "tokensCharged", "resubmittedFromId", "errorCode", "errorMessage"
    FROM "Job" WHERE ${inList('"id"', ids)}`;
  return jobRow.array().parse(rows);
}

const isJobEvent = (e: EventSource) => e.eventType !== "run.completed" && e.eventType !== "url.changed";

/** The JSON body of an event; null when the job row is gone (nothing true can be said about it). */
/**
 * `inline`: false leaves a job's results out (a resultsUrl instead); `results`: every result of each
 * stored job, already read (a sink's batch, lib/outbound/sink-send.ts), put in data.results as they are.
 */
export type BodyOptions = { inline?: boolean; results?: ReadonlyMap<string, unknown[]> };

export async function buildEventBody(e: EventSource, opts: BodyOptions = {}): Promise<string | null> {
  const [body] = await buildEventBodies([e], opts);
  return body;
}

/**
 * The bodies of many events (a sink's batch), in order: their jobs and dead letters read in one query
 * each, not one per event, on readDb() (both were committed with the outcome, before its event).
 */
export async function buildEventBodies(events: EventSource[], opts: BodyOptions = {}): Promise<Array<string | null>> {
  const jobIds = [...new Set(events.filter(isJobEvent).map((e) => e.jobId))];
  const deadIds = [
    ...new Set(events.filter((e) => isJobEvent(e) && e.outcome === "dead_lettered").map((e) => e.jobId)),
  ];
  const [jobs, deadLetters] = await Promise.all([
    jobsOf(jobIds),
    deadIds.length > 0
      ? readDb().deadLetter.findMany({
          where: { jobId: { in: deadIds } },
          orderBy: { id: "desc" },
          select: { jobId: true, createdAt: true, errorCode: true, errorMessage: true },
        })
      : [],
  ]);
  const jobOf = new Map(jobs.map((j) => [j.id, j]));
  return Promise.all(
    events.map((e) => {
      if (e.eventType === "run.completed") return runCompletedBody(e);
      if (e.eventType === "url.changed") return urlChangedBody(e);
      const job = jobOf.get(e.jobId);
      if (!job) return null;
      // The dead letter written with this outcome (a later one may belong to an operator's retry).
      const bound = e.createdAt.getTime() + 5_000;
      const dl = deadLetters.find((d) => d.jobId === e.jobId && d.createdAt.getTime() <= bound);
      return jobEventBody(e, job, dl, opts);
    }),
  );
}

async function jobEventBody(
  e: EventSource,
  job: JobRow,
  dl: { errorCode: string | null; errorMessage: string } | undefined,
  opts: BodyOptions,
): Promise<string> {
  const config = getConfig();
  const data: Record<string, unknown> = { jobId: e.jobId, kind: job.kind, outcome: e.outcome, url: job.url };
  if (job.resubmittedFromId) data.resubmittedFromId = job.resubmittedFromId;
  if (e.outcome === "stored") {
    data.resultCount = job.resultCount;
    data.tokensCharged = job.tokensCharged;
    // Sinks hand every result in (lib/outbound/sink-send.ts), not cut to TALLY_FORWARD_MAX_BYTES.
    const results = opts.results
      ? (opts.results.get(e.jobId) ?? [])
      : opts.inline === false
        ? undefined
        : await inlineResults(e.jobId, config.TALLY_FORWARD_MAX_BYTES);
    if (results) data.results = results;
    else data.resultsUrl = `${config.publicUrl}/api/jobs/${encodeURIComponent(e.jobId)}/results`;
  } else if (e.outcome === "dead_lettered") {
    data.error = {
      code: dl?.errorCode ?? job.errorCode ?? null,
      message: dl?.errorMessage ?? job.errorMessage ?? null,
    };
  }
  return JSON.stringify({ type: e.eventType, timestamp: e.createdAt.toISOString(), data });
}

/** run.completed: the run's final counts (OutboundDelivery.jobId holds the run id). */
async function runCompletedBody(e: EventSource): Promise<string | null> {
  const run = await db().run.findUnique({ where: { id: e.jobId } });
  if (!run) return null;
  const data = {
    runId: run.id,
    name: run.name,
    total: run.total,
    stored: run.stored,
    failed: run.failed,
    duplicateSubmits: run.duplicateSubmits,
    platformCalls: run.platformCalls,
    // Spend (issue 39): tokens charged, the cap and why submitting stopped at it.
    tokensCharged: run.tokensCharged,
    maxTokens: run.maxTokens,
    capReason: run.capReason,
  };
  return JSON.stringify({ type: e.eventType, timestamp: e.createdAt.toISOString(), data });
}

/** url.changed: one URL of a collection run (OutboundDelivery.jobId holds "<runId>:<seq>", its UrlChange row). */
async function urlChangedBody(e: EventSource): Promise<string | null> {
  const cut = e.jobId.lastIndexOf(":");
  const runId = e.jobId.slice(0, cut);
  const seq = Number(e.jobId.slice(cut + 1));
  if (cut < 0 || !Number.isInteger(seq)) return null;
  const [run, change] = await Promise.all([
    db().run.findUnique({ where: { id: runId }, select: { collectionId: true } }),
    db().urlChange.findUnique({ where: { runId_seq: { runId, seq } } }),
  ]);
  if (!run?.collectionId || !change) return null;
  const data = {
    runId,
    collectionId: run.collectionId,
    url: change.url,
    change: e.outcome,
    resultId: change.resultId,
    previousResultId: change.previousResultId,
  };
  return JSON.stringify({ type: e.eventType, timestamp: e.createdAt.toISOString(), data });
}
