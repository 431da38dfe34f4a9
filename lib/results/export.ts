import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import { log } from "../log";
import type { ExportQuery } from "./contracts";
import { z } from "zod";
import { csvLine } from "./csv";
import { bodySize, PAGE_BODY_CHARS, withinBudget } from "./csv-stream";
import { exportConditions } from "./export-filters";
import type { BodyAudience } from "./bodies";
import { isoOf, selectRows, toFeedItem, type ResultRow } from "./rows";

// A streamed export in constant memory: a pull-based ReadableStream reads one keyset page of
// EXPORT_PAGE rows (fewer when their bodies pass PAGE_BODY_CHARS) each time the client is ready for
// more, so a slow download holds one page and a million rows never sit in memory. Order is (createdAt, id) on Result's createdAt index, which a
// since/until window reads as a range. The rows are those committed when the first page is read
// (id <= the highest id then): rows stored meanwhile wait for the next export, not half of them.

export const EXPORT_PAGE = 500;

const CSV_COLUMNS = [
  "jobId",
  "kind",
  "itemKey",
  "url",
  "status",
  "format",
  "markdown",
  "html",
  "metadata",
  "errorCode",
  "errorMessage",
  "tokensCharged",
  "createdAt",
  "bodyError",
] as const;

const csvRow = (r: ResultRow) =>
  csvLine([
    r.jobId,
    r.kind,
    r.itemKey,
    r.url,
    r.status,
    r.format,
    r.markdown,
    r.html,
    r.metadata,
    r.errorCode,
    r.errorMessage,
    r.tokensCharged,
    isoOf(r.createdAt),
    r.bodyError,
  ]);
const jsonRow = (r: ResultRow) => `${JSON.stringify(toFeedItem(r))}\n`;

export type ResultsExport = { body: ReadableStream<Uint8Array>; contentType: string; filename: string };

export type ExportCursor = { at: string | Date; id: number };

/**
 * One page of the export after `last`: up to EXPORT_PAGE rows, fewer once their bodies pass
 * `budget` (the sizes are read first, then the bodies of the rows that fit; always one row at least).
 * `more` is false once nothing follows.
 */
export async function exportPage(
  filters: Prisma.Sql[],
  bound: number,
  last: ExportCursor | null,
  budget = PAGE_BODY_CHARS,
  audience: BodyAudience = {},
): Promise<{ rows: ResultRow[]; more: boolean }> {
  const where = [...filters, Prisma.sql`r."id" <= ${bound}`];
  // The plain >= lets the index seek to the position; the OR only settles ties in a millisecond.
  if (last) where.push(Prisma.sql`r."createdAt" >= ${last.at} AND (r."createdAt" > ${last.at} OR r."id" > ${last.id})`);
  const order = Prisma.sql`r."createdAt" ASC, r."id" ASC`;
  const sizes = sizeRow.array().parse(
    await db().$queryRaw`
      SELECT r."id", r."createdAt", ${bodySize("r")} AS "size" FROM "Result" r CROSS JOIN "Job" j
      WHERE ${Prisma.join([Prisma.sql`j."id" = r."jobId"`, ...where], " AND ")}
      ORDER BY ${order} LIMIT ${EXPORT_PAGE}`,
  );
  const n = withinBudget(
    sizes.map((s) => s.size),
    budget,
  );
  const end = sizes[n - 1];
  if (!end) return { rows: [], more: false };
  // The same rows again, up to the last that fits, now with their bodies.
  const upTo = Prisma.sql`r."createdAt" <= ${end.createdAt} AND (r."createdAt" < ${end.createdAt} OR r."id" <= ${end.id})`;
  // A stream cannot change its status once it began: a body the store cannot give now is said by row.
  const rows = await selectRows([...where, upTo], order, n, { ...audience, unavailable: "report" });
  return { rows, more: n < sizes.length || sizes.length === EXPORT_PAGE };
}

const sizeRow = z.object({
  id: z.coerce.number().int(),
  // As stored, like ResultRow's: compared again with exactly what the column holds.
  createdAt: z.union([z.string(), z.date()]),
  size: z.coerce.number(),
});

async function highestId(): Promise<number> {
  const top = await db().result.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
  return top?.id ?? 0;
}

export function exportResults(query: ExportQuery, audience: BodyAudience = {}, now = new Date()): ResultsExport {
  const csv = query.format === "csv";
  const line = csv ? csvRow : jsonRow;
  const filters = exportConditions(query);
  const encoder = new TextEncoder();
  let bound: number | null = null;
  let last: ExportCursor | null = null;
  let started = false;

  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          bound ??= await highestId();
          const page = await exportPage(filters, bound, last, PAGE_BODY_CHARS, audience);
          let chunk = csv && !started ? csvLine([...CSV_COLUMNS]) : "";
          started = true;
          for (const r of page.rows) chunk += line(r);
          if (chunk) controller.enqueue(encoder.encode(chunk));
          const end = page.rows.at(-1);
          if (!page.more || !end) controller.close();
          else last = { at: end.createdAt, id: end.id };
        } catch (err) {
          // Headers are sent already: the download ends short (the client sees the stream fail).
          log.error("results export failed", { error: String(err) });
          controller.error(err);
        }
      },
    },
    { highWaterMark: 1 },
  );

  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return {
    body,
    contentType: csv ? "text/csv; charset=utf-8; header=present" : "application/x-ndjson; charset=utf-8",
    filename: `tally-results-${stamp}.${csv ? "csv" : "jsonl"}`,
  };
}
