import "server-only";
import { z } from "zod";
import type { Prisma } from "@/generated/prisma/client";
import { getConfig } from "../config";
import { db } from "../db";
import type { DeadLetterPage } from "./contracts";
import { cursorText, decodeCursor, encodeCursor, intId } from "../keyset";
import { singleton } from "../runtime";

// Dead letters for the dashboard: a filter shared by the list and the bulk actions, keyset pages
// newest first, and the values the filter form offers. Pages are keyed on the id alone: ids grow with
// createdAt (autoincrement, default now()), and the primary key serves every filter without a sort
// (DeadLetter has no createdAt-only index; with "all states" a createdAt order sorted every row).

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalText = (max: number) => z.preprocess(blankToUndefined, z.string().trim().max(max).optional());

export const DEAD_LETTER_STATES = ["open", "retried", "discarded"] as const;

export const deadLetterFilterSchema = z.object({
  state: z.preprocess(
    blankToUndefined,
    z.enum([...DEAD_LETTER_STATES, "all"], { error: "state must be open, retried, discarded or all" }).default("open"),
  ),
  kind: optionalText(64),
  errorCode: optionalText(100),
  /** A job id, exact. */
  jobId: optionalText(200),
});
export type DeadLetterFilter = z.infer<typeof deadLetterFilterSchema>;

/** Pages are keyed on the id alone (see above). */
const DEAD_LETTERS_CURSOR = { tag: "dl1", position: z.tuple([intId]) };

export const deadLetterListQuerySchema = deadLetterFilterSchema.extend({
  // checked here, kept as text: the page builds its links from the parsed query
  cursor: cursorText(DEAD_LETTERS_CURSOR),
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

// The filter form's choices change only when new kinds of failure appear; counting them on every
// refresh would read every dead letter twice.
const FACETS_MS = 30_000;
const facetCache = () =>
  singleton("deadLetters.facets", () => new Map<string, { at: number; value: Promise<DeadLetterPage["facets"]> }>());

function facets(): Promise<DeadLetterPage["facets"]> {
  const key = getConfig().DATABASE_URL;
  const cached = facetCache().get(key);
  if (cached && Date.now() - cached.at < FACETS_MS) return cached.value;
  const value = Promise.all([
    db().deadLetter.groupBy({ by: ["kind"], orderBy: { kind: "asc" } }),
    db().deadLetter.groupBy({ by: ["errorCode"], where: { errorCode: { not: null } }, orderBy: { errorCode: "asc" } }),
  ]).then(([kinds, codes]) => ({
    kinds: kinds.map((k) => k.kind),
    errorCodes: codes.flatMap((c) => (c.errorCode ? [c.errorCode] : [])),
  }));
  facetCache().set(key, { at: Date.now(), value });
  value.catch(() => facetCache().delete(key));
  return value;
}

export type { DeadLetterPage, DeadLetterRow } from "./contracts";

export async function listDeadLetters(q: DeadLetterListQuery): Promise<DeadLetterPage> {
  const where = filterWhere(q);
  const after = decodeCursor(DEAD_LETTERS_CURSOR.tag, q.cursor, DEAD_LETTERS_CURSOR.position)?.[0];
  const page: Prisma.DeadLetterWhereInput = after ? { AND: [where, { id: { lt: after } }] } : where;
  const client = db();
  const [rows, total, choices] = await Promise.all([
    client.deadLetter.findMany({ where: page, orderBy: { id: "desc" }, take: q.limit + 1 }),
    client.deadLetter.count({ where }),
    facets(),
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
    nextCursor: more && last ? encodeCursor(DEAD_LETTERS_CURSOR.tag, [last.id]) : null,
    total,
    facets: choices,
  };
}
