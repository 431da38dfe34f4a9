import "server-only";
import { z } from "zod";
import type { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import { encodeCursor, jobListQuerySchema } from "../pipeline/jobs";

// The Jobs page's list. It takes lib/pipeline/jobs.ts's query (status, outcome, kind, q, cursor,
// limit: the same names and cursor as GET /api/jobs) and adds what the page needs on top: a time
// range and oldest-first order. Keyset on (createdAt, id) in either direction, served by the
// Job(createdAt, id) index, so page 1,000 costs what page 1 does; equal timestamps are ordered by id,
// so nothing repeats or goes missing between pages. Only the table's columns are read.

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const instant = z.preprocess(
  blank,
  z
    .string()
    .max(40)
    .refine((s) => !Number.isNaN(Date.parse(s)), { error: "must be a date and time, e.g. 2026-11-29T10:00:00Z" })
    .transform((s) => new Date(s))
    .optional(),
);

export const jobsPageQuerySchema = jobListQuerySchema.extend({
  from: instant,
  to: instant,
  sort: z.preprocess(blank, z.enum(["newest", "oldest"], { error: "must be newest or oldest" }).default("newest")),
});
export type JobsPageQuery = z.output<typeof jobsPageQuerySchema>;

const columns = {
  id: true,
  kind: true,
  url: true,
  platformStatus: true,
  outcome: true,
  origin: true,
  attempts: true,
  resultCount: true,
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
  errorCode: string | null;
  resubmittedAsId: string | null;
  resubmittedFromId: string | null;
  createdAt: string;
  outcomeAt: string | null;
};

export type JobsPage = { items: JobRow[]; nextCursor: string | null };

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
    ...ranges.map((where) => db().job.findMany({ where, select: { id: true }, orderBy: { url: "asc" }, take: CANDIDATES + 1 })),
  ]);
  const ids = new Set(lists.flat().map((h) => h.id));
  if (ids.size <= CANDIDATES) return { id: { in: [...ids] } };
  // Thousands match (a whole site): dense enough that walking jobs newest first finds a page at
  // once. LIKE keeps the planner on that walk; the same ranges would make it collect and sort them all.
  return { OR: [{ id: q }, ...prefixes.map((p) => ({ url: { startsWith: p } }))] };
}

export async function listJobsPage(query: JobsPageQuery): Promise<JobsPage> {
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
    const at = new Date(c.t);
    // The plain range beside the OR lets SQLite seek the (createdAt, id) index to the cursor
    // instead of walking it from the top: a deep page then costs what the first one does.
    and.push(
      asc
        ? { createdAt: { gte: at }, OR: [{ createdAt: { gt: at } }, { id: { gt: c.i } }] }
        : { createdAt: { lte: at }, OR: [{ createdAt: { lt: at } }, { id: { lt: c.i } }] },
    );
  }
  const dir = asc ? "asc" : "desc";
  const rows = await db().job.findMany({
    where: { AND: and },
    orderBy: [{ createdAt: dir }, { id: dir }],
    take: query.limit + 1,
    select: columns,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), outcomeAt: r.outcomeAt?.toISOString() ?? null })),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
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
  const given = Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => known.has(e[0]) && e[1] !== undefined && e[1] !== ""));
  const first = jobsPageQuerySchema.safeParse(given);
  if (first.success) return { query: first.data, params: given, problems: [] };
  const bad = new Set(first.error.issues.map((i) => String(i.path[0] ?? "")));
  const problems = first.error.issues.map((i) => `${i.path.join(".") || "query"}: ${i.message} (got ${JSON.stringify(given[String(i.path[0])] ?? "").slice(0, 80)})`);
  const params = Object.fromEntries(Object.entries(given).filter(([k]) => !bad.has(k)));
  const second = jobsPageQuerySchema.safeParse(params);
  return second.success ? { query: second.data, params, problems } : { query: jobsPageQuerySchema.parse({}), params: {}, problems };
}
