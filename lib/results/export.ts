import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import { log } from "../log";
import type { ExportQuery } from "./contracts";
import { csvLine } from "./csv";
import { exportConditions } from "./export-filters";
import { isoOf, selectRows, toFeedItem, type ResultRow } from "./rows";

// A streamed export in constant memory: a pull-based ReadableStream reads one keyset page of
// EXPORT_PAGE rows each time the client is ready for more, so a slow download holds one page and a
// million rows never sit in memory. Order is (createdAt, id) on Result's createdAt index, which a
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
  ]);
const jsonRow = (r: ResultRow) => `${JSON.stringify(toFeedItem(r))}\n`;

export type ResultsExport = { body: ReadableStream<Uint8Array>; contentType: string; filename: string };

async function highestId(): Promise<number> {
  const top = await db().result.findFirst({ orderBy: { id: "desc" }, select: { id: true } });
  return top?.id ?? 0;
}

export function exportResults(query: ExportQuery, now = new Date()): ResultsExport {
  const csv = query.format === "csv";
  const line = csv ? csvRow : jsonRow;
  const filters = exportConditions(query);
  const encoder = new TextEncoder();
  let bound: number | null = null;
  let last: { at: string | Date; id: number } | null = null;
  let started = false;

  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          bound ??= await highestId();
          const where = [...filters, Prisma.sql`r."id" <= ${bound}`];
          // The plain >= lets the index seek to the position; the OR only settles ties in a millisecond.
          if (last)
            where.push(Prisma.sql`r."createdAt" >= ${last.at} AND (r."createdAt" > ${last.at} OR r."id" > ${last.id})`);
          const rows = await selectRows(where, Prisma.sql`r."createdAt" ASC, r."id" ASC`, EXPORT_PAGE);
          let chunk = csv && !started ? csvLine([...CSV_COLUMNS]) : "";
          started = true;
          for (const r of rows) chunk += line(r);
          if (chunk) controller.enqueue(encoder.encode(chunk));
          const end = rows.at(-1);
          if (rows.length < EXPORT_PAGE || !end) controller.close();
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
