import "server-only";
import { z } from "zod";
import type { Job, Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import { NotFound } from "../errors";
import { cursorParam, encodeCursor as encodeKeysetCursor, textId, timeIdPosition } from "../keyset";
import { JOB_OUTCOMES, JOB_STATUSES } from "../platform";

// The jobs query shared by the API and the dashboard: one job, or a filtered page ordered newest
// first with keyset pagination on (createdAt, id), so deep pages cost the same as the first and rows
// inserted meanwhile neither repeat nor vanish between pages.

const blankAsUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsUndefined, schema.optional());

// Defined once beside the job kinds (lib/platform/events.ts), so results/ can filter by them without importing jobs/.
export { JOB_OUTCOMES, JOB_STATUSES };

/** The Jobs list's cursor: a (createdAt, id) keyset, whichever way the list is sorted. */
const JOBS_CURSOR = { tag: "j1", position: timeIdPosition(textId) };

export function encodeCursor(job: Pick<Job, "createdAt" | "id">): string {
  return encodeKeysetCursor(JOBS_CURSOR.tag, [job.createdAt.getTime(), job.id]);
}

const instant = optional(
  z
    .string()
    .max(40)
    .refine((v) => !Number.isNaN(Date.parse(v)), { error: "must be a date and time, e.g. 2026-11-29T10:00:00Z" })
    .transform((v) => new Date(v)),
);

export const jobListQuerySchema = z.object({
  status: optional(z.enum(JOB_STATUSES, { error: `must be one of ${JOB_STATUSES.join(", ")}` })),
  outcome: optional(z.enum(JOB_OUTCOMES, { error: `must be one of ${JOB_OUTCOMES.join(", ")}` })),
  kind: optional(z.enum(["extract", "batch", "crawl"], { error: "must be extract, batch or crawl" })),
  q: optional(z.string().trim().max(2000)),
  limit: z.preprocess(
    blankAsUndefined,
    z.coerce
      .number({ error: "must be a number" })
      .int({ error: "must be a whole number" })
      .min(1, { error: "must be at least 1" })
      .max(200, { error: "must be at most 200" })
      .default(50),
  ),
  cursor: cursorParam(JOBS_CURSOR),
  from: instant,
  to: instant,
  sort: z.preprocess(
    blankAsUndefined,
    z.enum(["newest", "oldest"], { error: "must be newest or oldest" }).default("newest"),
  ),
});
export type JobListQuery = z.output<typeof jobListQuerySchema>;

export type JobView = ReturnType<typeof toView>;

/**
 * A settled job's items: every item the platform returned (one for an extract), of which `failed`
 * came back with status failed and `stored` with their content. All 0 until the job is stored.
 */
export function itemCounts(j: Pick<Job, "resultCount" | "itemsFailed">) {
  const failed = Math.min(j.itemsFailed, j.resultCount);
  return { total: j.resultCount, stored: j.resultCount - failed, failed };
}

function toView(j: Job) {
  return {
    jobId: j.id,
    kind: j.kind,
    status: j.platformStatus,
    outcome: j.outcome,
    origin: j.origin,
    url: j.url,
    attempts: j.attempts,
    chainDepth: j.chainDepth,
    resubmittedAsId: j.resubmittedAsId,
    resubmittedFromId: j.resubmittedFromId,
    error:
      j.errorCode || j.errorMessage
        ? { code: j.errorCode, message: j.errorMessage, retryable: j.errorRetryable }
        : null,
    resultCount: j.resultCount,
    items: itemCounts(j),
    tokensCharged: j.tokensCharged,
    nextPollAt: j.nextPollAt,
    createdAt: j.createdAt,
    updatedAt: j.updatedAt,
    settledAt: j.settledAt,
    outcomeAt: j.outcomeAt,
  };
}

// Search is by job id (exact) or by URL prefix, the scheme optional ("example.com/docs" finds
// "https://example.com/docs/…"): both are index lookups. A substring search ("contains") cannot
// use an index, and when nothing matches it reads every job: 1.5 s at a million rows.
const CANDIDATES = 500;
const TOP = String.fromCodePoint(0x10ffff);

async function searchWhere(q: string): Promise<Prisma.JobWhereInput> {
  const prefixes = /^https?:\/\//i.test(q) ? [q] : [q, `https://${q}`, `http://${q}`];
  const ranges: Prisma.JobWhereInput[] = prefixes.map((p) => ({ url: { gte: p, lt: p + TOP } }));
  // One bounded query per term, each a plain index range (an OR of them made SQLite gather every
  // match first: 0.7 s for a whole site); a few matches are then ordered and paged by time.
  // Ordered by url: Prisma adds ORDER BY id to any `take`, which made SQLite sort every match.
  const lists = await Promise.all([
    db().job.findMany({ where: { id: q }, select: { id: true } }),
    ...ranges.map((where) =>
      db().job.findMany({ where, select: { id: true }, orderBy: { url: "asc" }, take: CANDIDATES + 1 }),
    ),
  ]);
  const ids = new Set(lists.flat().map((h) => h.id));
  if (ids.size <= CANDIDATES) return { id: { in: [...ids] } };
  // Thousands match (a whole site): dense enough that walking jobs newest first finds a page at
  // once. LIKE keeps the planner on that walk; the same ranges would make it collect and sort them all.
  return { OR: [{ id: q }, ...prefixes.map((p) => ({ url: { startsWith: p } }))] };
}

/** Filters, search, time range and keyset position as one Prisma query, shared by API and page. */
export async function jobsQuery(query: JobListQuery) {
  const and: Prisma.JobWhereInput[] = [];
  if (query.status) and.push({ platformStatus: query.status });
  if (query.outcome) and.push({ outcome: query.outcome });
  if (query.kind) and.push({ kind: query.kind });
  if (query.q) and.push(await searchWhere(query.q));
  if (query.from) and.push({ createdAt: { gte: query.from } });
  if (query.to) and.push({ createdAt: { lt: query.to } });
  const asc = query.sort === "oldest";
  const c = query.cursor;
  if (c) {
    const [ms, id] = c;
    const at = new Date(ms);
    // The plain range beside the OR lets SQLite seek the (createdAt, id) index to the cursor
    // instead of walking it from the top: a deep page then costs what the first one does.
    and.push(
      asc
        ? { createdAt: { gte: at }, OR: [{ createdAt: { gt: at } }, { id: { gt: id } }] }
        : { createdAt: { lte: at }, OR: [{ createdAt: { lt: at } }, { id: { lt: id } }] },
    );
  }
  const dir = asc ? ("asc" as const) : ("desc" as const);
  return { where: { AND: and }, orderBy: [{ createdAt: dir }, { id: dir }], take: query.limit + 1 };
}

/** Cuts the one-extra row a keyset query reads into the page and the cursor of the next one. */
export function toPage<T extends Pick<Job, "createdAt" | "id">>(
  rows: T[],
  limit: number,
): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

export async function listJobs(query: JobListQuery): Promise<{ items: JobView[]; nextCursor: string | null }> {
  const rows = await db().job.findMany(await jobsQuery(query));
  const { page, nextCursor } = toPage(rows, query.limit);
  return { items: page.map(toView), nextCursor };
}

/** One job with its timeline; NotFound when Tally has never heard of it. */
export async function getJob(jobId: string) {
  const job = await db().job.findUnique({ where: { id: jobId } });
  if (!job) throw new NotFound(`No job ${jobId}`);
  const events = await db().jobEvent.findMany({ where: { jobId }, orderBy: { id: "asc" }, take: 500 });
  return {
    ...toView(job),
    events: events.map((e) => ({ at: e.at, type: e.type, detail: parseDetail(e.detail) })),
  };
}

function parseDetail(detail: string | null): unknown {
  if (detail === null) return null;
  try {
    return JSON.parse(detail);
  } catch {
    return detail;
  }
}
