import "server-only";
import { z } from "zod";
import type { Job, Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import { NotFound } from "../errors";

// The jobs query shared by the API and the dashboard: one job, or a filtered page ordered newest
// first with keyset pagination on (createdAt, id), so deep pages cost the same as the first and rows
// inserted meanwhile neither repeat nor vanish between pages.

const blankAsUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsUndefined, schema.optional());

export const JOB_STATUSES = ["queued", "processing", "completed", "failed", "cancelled", "unknown"] as const;
export const JOB_OUTCOMES = ["pending", "stored", "resubmitted", "dead_lettered", "cancelled"] as const;

type Cursor = { t: number; i: string };
const cursorSchema = z.object({ t: z.number().int().nonnegative(), i: z.string().min(1) });

export function encodeCursor(job: Pick<Job, "createdAt" | "id">): string {
  return Buffer.from(JSON.stringify({ t: job.createdAt.getTime(), i: job.id })).toString("base64url");
}

function decodeCursor(value: string): Cursor | null {
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(value, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const jobListQuerySchema = z.object({
  status: optional(z.enum(JOB_STATUSES, { error: `must be one of ${JOB_STATUSES.join(", ")}` })),
  outcome: optional(z.enum(JOB_OUTCOMES, { error: `must be one of ${JOB_OUTCOMES.join(", ")}` })),
  kind: optional(z.enum(["extract", "batch", "crawl"], { error: "must be extract, batch or crawl" })),
  q: optional(z.string().trim().max(2000)),
  limit: z.preprocess(
    blankAsUndefined,
    z.coerce.number({ error: "must be a number" }).int({ error: "must be a whole number" }).min(1, { error: "must be at least 1" }).max(200, { error: "must be at most 200" }).default(50),
  ),
  cursor: optional(z.string().max(500)).transform((v, ctx) => {
    if (v === undefined) return undefined;
    const c = decodeCursor(v);
    if (!c) ctx.addIssue({ code: "custom", message: "not a cursor this API returned (pass nextCursor back unchanged)" });
    return c ?? undefined;
  }),
});
export type JobListQuery = z.output<typeof jobListQuerySchema>;

export type JobView = ReturnType<typeof toView>;

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
    error: j.errorCode || j.errorMessage ? { code: j.errorCode, message: j.errorMessage, retryable: j.errorRetryable } : null,
    resultCount: j.resultCount,
    tokensCharged: j.tokensCharged,
    nextPollAt: j.nextPollAt,
    createdAt: j.createdAt,
    updatedAt: j.updatedAt,
    settledAt: j.settledAt,
    outcomeAt: j.outcomeAt,
  };
}

export async function listJobs(query: JobListQuery): Promise<{ items: JobView[]; nextCursor: string | null }> {
  const and: Prisma.JobWhereInput[] = [];
  if (query.status) and.push({ platformStatus: query.status });
  if (query.outcome) and.push({ outcome: query.outcome });
  if (query.kind) and.push({ kind: query.kind });
  if (query.q) and.push({ OR: [{ id: query.q }, { url: { contains: query.q } }] });
  const c = query.cursor;
  if (c) {
    const at = new Date(c.t);
    and.push({ OR: [{ createdAt: { lt: at } }, { createdAt: at, id: { lt: c.i } }] });
  }
  const rows = await db().job.findMany({
    where: { AND: and },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return { items: page.map(toView), nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
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
