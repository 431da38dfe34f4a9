import "server-only";
import { db } from "../db";
import { jobListQuerySchema, jobsQuery, toPage, type JobListQuery } from "./query";

// The Jobs page's list: the same query as GET /api/jobs (lib/jobs/query.ts: filters, search,
// time range, sort, keyset cursor on (createdAt, id)), reading only the table's columns.

/** The page takes exactly the API's query (filters, search, time range, sort, cursor). */
export const jobsPageQuerySchema = jobListQuerySchema;
export type JobsPageQuery = JobListQuery;

const columns = {
  id: true,
  kind: true,
  url: true,
  platformStatus: true,
  outcome: true,
  origin: true,
  attempts: true,
  resultCount: true,
  itemsFailed: true,
  errorCode: true,
  resubmittedAsId: true,
  resubmittedFromId: true,
  createdAt: true,
  outcomeAt: true,
} as const;

export type JobRow = {
  id: string;
  kind: string;
  url: string | null;
  platformStatus: string;
  outcome: string;
  origin: string;
  attempts: number;
  resultCount: number;
  /** Of resultCount, the items the platform reported failed (a stored batch or crawl). */
  itemsFailed: number;
  errorCode: string | null;
  resubmittedAsId: string | null;
  resubmittedFromId: string | null;
  createdAt: string;
  outcomeAt: string | null;
};

export type JobsPage = { items: JobRow[]; nextCursor: string | null };

export async function listJobsPage(query: JobsPageQuery): Promise<JobsPage> {
  const rows = await db().job.findMany({ ...(await jobsQuery(query)), select: columns });
  const { page, nextCursor } = toPage(rows, query.limit);
  return {
    items: page.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      outcomeAt: r.outcomeAt?.toISOString() ?? null,
    })),
    nextCursor,
  };
}

/** The accepted search params as text (for links and the filter form) and the parsed query. */
export type ParsedJobsSearch = { query: JobsPageQuery; params: Record<string, string>; problems: string[] };

/**
 * Parses the page's search params field by field: a bad value is dropped and reported in words,
 * and the rest of the filter still applies.
 */
export function parseJobsSearch(raw: Record<string, string | undefined>): ParsedJobsSearch {
  const known = new Set(Object.keys(jobsPageQuerySchema.shape));
  const given = Object.fromEntries(
    Object.entries(raw).filter((e): e is [string, string] => known.has(e[0]) && e[1] !== undefined && e[1] !== ""),
  );
  const first = jobsPageQuerySchema.safeParse(given);
  if (first.success) return { query: first.data, params: given, problems: [] };
  const bad = new Set(first.error.issues.map((i) => String(i.path[0] ?? "")));
  const problems = first.error.issues.map(
    (i) =>
      `${i.path.join(".") || "query"}: ${i.message} (got ${JSON.stringify(given[String(i.path[0])] ?? "").slice(0, 80)})`,
  );
  const params = Object.fromEntries(Object.entries(given).filter(([k]) => !bad.has(k)));
  const second = jobsPageQuerySchema.safeParse(params);
  return second.success
    ? { query: second.data, params, problems }
    : { query: jobsPageQuerySchema.parse({}), params: {}, problems };
}
