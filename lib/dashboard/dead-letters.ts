import "server-only";
import { z } from "zod";
import type { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import { BadRequest } from "../errors";

// Dead letters for the dashboard: a filter shared by the list and the bulk actions, keyset pages
// on (createdAt, id) newest first, and the figures the filter form offers.

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalText = (max: number) => z.preprocess(blankToUndefined, z.string().trim().max(max).optional());

export const DEAD_LETTER_STATES = ["open", "retried", "discarded"] as const;

export const deadLetterFilterSchema = z.object({
  state: z.preprocess(blankToUndefined, z.enum([...DEAD_LETTER_STATES, "all"], { error: "state must be open, retried, discarded or all" }).default("open")),
  kind: optionalText(64),
  errorCode: optionalText(100),
  /** A job id, exact. */
  jobId: optionalText(200),
});
export type DeadLetterFilter = z.infer<typeof deadLetterFilterSchema>;

export const deadLetterListQuerySchema = deadLetterFilterSchema.extend({
  cursor: optionalText(200),
  limit: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(200).default(50)),
});
export type DeadLetterListQuery = z.infer<typeof deadLetterListQuerySchema>;

export function filterWhere(f: DeadLetterFilter): Prisma.DeadLetterWhereInput {
  return {
    ...(f.state === "all" ? {} : { state: f.state }),
    ...(f.kind ? { kind: f.kind } : {}),
    ...(f.errorCode ? { errorCode: f.errorCode } : {}),
    ...(f.jobId ? { jobId: f.jobId } : {}),
  };
}

const cursorSchema = z.tuple([z.iso.datetime(), z.coerce.number().int().positive()]);

export function encodeCursor(createdAt: Date, id: number): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: Date; id: number } {
  const parsed = cursorSchema.safeParse(Buffer.from(cursor, "base64url").toString("utf8").split("|"));
  if (!parsed.success) throw new BadRequest("The page cursor is not valid; start again from the first page");
  return { createdAt: new Date(parsed.data[0]), id: parsed.data[1] };
}

export type DeadLetterRow = {
  id: number;
  jobId: string | null;
  queueItemId: number | null;
  kind: string;
  errorCode: string | null;
  errorMessage: string;
  attempts: number;
  state: string;
  resolution: string | null;
  resolvedBy: string | null;
  resolvedAt: string | null;
  createdAt: string;
  job: { kind: string; url: string | null; outcome: string; platformStatus: string; resubmittedAsId: string | null } | null;
};

export type DeadLetterPage = {
  items: DeadLetterRow[];
  nextCursor: string | null;
  /** How many rows the filter matches in all pages. */
  total: number;
  facets: { kinds: string[]; errorCodes: string[] };
};

export async function listDeadLetters(q: DeadLetterListQuery): Promise<DeadLetterPage> {
  const where = filterWhere(q);
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  const page: Prisma.DeadLetterWhereInput = after
    ? { AND: [where, { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }] }
    : where;
  const client = db();
  const [rows, total, kinds, codes] = await Promise.all([
    client.deadLetter.findMany({ where: page, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: q.limit + 1 }),
    client.deadLetter.count({ where }),
    client.deadLetter.groupBy({ by: ["kind"], orderBy: { kind: "asc" } }),
    client.deadLetter.groupBy({ by: ["errorCode"], where: { errorCode: { not: null } }, orderBy: { errorCode: "asc" } }),
  ]);
  const more = rows.length > q.limit;
  const shown = rows.slice(0, q.limit);
  const jobIds = [...new Set(shown.flatMap((r) => (r.jobId ? [r.jobId] : [])))];
  const jobs = new Map(
    (
      await client.job.findMany({
        where: { id: { in: jobIds } },
        select: { id: true, kind: true, url: true, outcome: true, platformStatus: true, resubmittedAsId: true },
      })
    ).map(({ id, ...j }) => [id, j]),
  );
  const last = shown.at(-1);
  return {
    items: shown.map((r) => ({
      id: r.id,
      jobId: r.jobId,
      queueItemId: r.queueItemId,
      kind: r.kind,
      errorCode: r.errorCode,
      errorMessage: r.errorMessage,
      attempts: r.attempts,
      state: r.state,
      resolution: r.resolution,
      resolvedBy: r.resolvedBy,
      resolvedAt: r.resolvedAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
      job: (r.jobId && jobs.get(r.jobId)) || null,
    })),
    nextCursor: more && last ? encodeCursor(last.createdAt, last.id) : null,
    total,
    facets: { kinds: kinds.map((k) => k.kind), errorCodes: codes.flatMap((c) => (c.errorCode ? [c.errorCode] : [])) },
  };
}
