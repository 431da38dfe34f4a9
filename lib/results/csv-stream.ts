import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { log } from "../log";
import { csvLine } from "./csv";

// A CSV download in constant memory for any list: the header row, then one page of rows each time
// the client is ready for more (a pull-based ReadableStream), until a page comes back short.

export type CsvCells = Array<string | number | null>;
export type CsvPage<P> = { rows: CsvCells[]; position: P | null; more?: boolean };
export type CsvExport = { body: ReadableStream<Uint8Array>; contentType: string; filename: string };

export const CSV_PAGE = 500;

/**
 * What a page of stored bodies may hold besides its row limit: 16 Mi characters of markdown + html
 * (16–32 MiB as V8 strings, about as much again once encoded for the answer). 500 typical pages of
 * 10–100 KB stay one page; 500 pages of 1 MiB, which nothing upstream refuses, would be 0.5–1 GiB.
 * Sizes are read in SQL before the bodies: a body kept in the body store counts its stored size in bytes
 * (markdownSize, htmlSize: at least its characters), an inline one its `length()` (characters on both stores).
 */
export const PAGE_BODY_CHARS = 16 * 1024 * 1024;

/** SQL for a row's body size: its markdown and html, kept (their sizes) or inline (`alias` the Result table's). */
export const bodySize = (alias: string) =>
  Prisma.raw(
    `COALESCE(${alias}."markdownSize", LENGTH(${alias}."markdown"), 0) + COALESCE(${alias}."htmlSize", LENGTH(${alias}."html"), 0)`,
  );

/** How many of `sizes` (in order) a page takes: those within `budget`, and always the first. */
export function withinBudget(sizes: readonly number[], budget: number): number {
  let total = 0;
  let n = 0;
  while (n < sizes.length && (n === 0 || total + sizes[n] <= budget)) total += sizes[n++];
  return n;
}

/**
 * `nextPage(after)` returns up to CSV_PAGE rows after the position it was given and the new position,
 * and `more: false` once nothing follows (a page cut short by a byte budget says `more: true`;
 * without `more`, a page shorter than CSV_PAGE is the last).
 * The first page is read before the answer starts, so a query the database refuses becomes an error
 * answer with its status, not a download that breaks off after its headers.
 */
export async function csvStream<P>(opts: {
  name: string;
  header: readonly string[];
  nextPage: (after: P | null) => Promise<CsvPage<P>>;
  now?: Date;
}): Promise<CsvExport> {
  const encoder = new TextEncoder();
  let next: CsvPage<P> | null = await opts.nextPage(null);
  let chunk = csvLine([...opts.header]);
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const page: CsvPage<P> = next ?? { rows: [], position: null };
          for (const r of page.rows) chunk += csvLine(r);
          controller.enqueue(encoder.encode(chunk));
          chunk = "";
          if (!(page.more ?? page.rows.length >= CSV_PAGE) || page.position === null) {
            controller.close();
            return;
          }
          next = await opts.nextPage(page.position);
        } catch (err) {
          // Headers are sent already: the download ends short (the client sees the stream fail).
          log.error(`${opts.name} export failed`, { error: String(err) });
          controller.error(err);
        }
      },
    },
    { highWaterMark: 1 },
  );
  const stamp = (opts.now ?? new Date())
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return { body, contentType: "text/csv; charset=utf-8; header=present", filename: `tally-${opts.name}-${stamp}.csv` };
}

/** The answer for a CSV download route. */
export function csvResponse(out: CsvExport): Response {
  return new Response(out.body, {
    headers: {
      "content-type": out.contentType,
      "content-disposition": `attachment; filename="${out.filename}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
