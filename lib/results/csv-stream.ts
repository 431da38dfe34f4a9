import "server-only";
import { log } from "../log";
import { csvLine } from "./csv";

// A CSV download in constant memory for any list: the header row, then one page of rows each time
// the client is ready for more (a pull-based ReadableStream), until a page comes back short.

export type CsvCells = Array<string | number | null>;
export type CsvExport = { body: ReadableStream<Uint8Array>; contentType: string; filename: string };

export const CSV_PAGE = 500;

/**
 * `nextPage(after)` returns up to CSV_PAGE rows after the position it was given and the new position.
 * The first page is read before the answer starts, so a query the database refuses becomes an error
 * answer with its status, not a download that breaks off after its headers.
 */
export async function csvStream<P>(opts: {
  name: string;
  header: readonly string[];
  nextPage: (after: P | null) => Promise<{ rows: CsvCells[]; position: P | null }>;
  now?: Date;
}): Promise<CsvExport> {
  const encoder = new TextEncoder();
  let next: { rows: CsvCells[]; position: P | null } | null = await opts.nextPage(null);
  let chunk = csvLine([...opts.header]);
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const page = next ?? { rows: [], position: null };
          for (const r of page.rows) chunk += csvLine(r);
          controller.enqueue(encoder.encode(chunk));
          chunk = "";
          if (page.rows.length < CSV_PAGE || page.position === null) {
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
