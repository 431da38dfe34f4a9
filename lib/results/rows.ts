import "server-only";
import { z } from "zod";
import { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import type { FeedItem, ResultItem } from "./contracts";
import { bodyColumns, bodyColumnsShape, type ResolveOptions, resolveBodies, resultName } from "./bodies";
import { feedWindow } from "./position";

// The one SELECT of result rows with their job's kind, shared by the per-job list, the feed and the
// export. `CROSS JOIN … WHERE j.id = r.jobId` is an inner join everywhere; on SQLite it also keeps
// Result as the outer loop, so a page is read in the order of Result's own index and stops at LIMIT
// instead of the planner starting from a Job index and sorting every match.

const text = z.string().nullable();
const rowSchema = z.object({
  id: z.coerce.number().int(),
  jobId: z.string(),
  kind: z.string(),
  itemKey: z.string(),
  url: text,
  status: z.string(),
  format: z.string(),
  ...bodyColumnsShape,
  metadata: text,
  errorCode: text,
  errorMessage: text,
  tokensCharged: z.coerce.number(),
  // As stored: kept as read so a keyset bound compares with exactly what the column holds.
  createdAt: z.union([z.string(), z.date()]),
  // PostgreSQL only: the writing transaction, part of the feed's position (position.ts's columns).
  txid: z.coerce.number().int().nullish(),
});
/** A row as read, its bodies resolved (bodies.ts): `bodyError` says why one could not be read. */
export type ResultRow = z.output<typeof rowSchema> & { bodyError: string | null };

/**
 * Result rows (alias r, job alias j) matching `where`, in `orderBy`, at most `limit`, bodies resolved
 * (a body store that does not answer throws BodyUnavailable, unless `options` says to report it).
 */
export async function selectRows(
  where: Prisma.Sql[],
  orderBy: Prisma.Sql,
  limit: number,
  options: ResolveOptions = {},
): Promise<ResultRow[]> {
  const conditions = [Prisma.sql`j."id" = r."jobId"`, ...where];
  const rows = await db().$queryRaw<unknown[]>`
    SELECT r."id", r."jobId", j."kind", r."itemKey", r."url", r."status", r."format", ${bodyColumns("r")},
      r."metadata", r."errorCode", r."errorMessage", r."tokensCharged", r."createdAt"${feedWindow().columns}
    FROM "Result" r CROSS JOIN "Job" j
    WHERE ${Prisma.join(conditions, " AND ")}
    ORDER BY ${orderBy}
    LIMIT ${limit}`;
  return resolveBodies(
    rows.map((r) => rowSchema.parse(r)),
    resultName,
    options,
  );
}

/** Metadata is stored as JSON text; a value that does not parse is passed on as the text it is. */
export function parseMetadata(value: string | null): unknown {
  if (value === null) return null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

export const isoOf = (v: string | Date) => new Date(v).toISOString();

export function toItem(r: ResultRow): ResultItem {
  return {
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
    createdAt: isoOf(r.createdAt),
  };
}

export function toFeedItem(r: ResultRow): FeedItem {
  return { jobId: r.jobId, kind: r.kind, ...toItem(r) };
}
