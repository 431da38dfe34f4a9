import "server-only";
import { parseMetadata } from "./rows";
import { z } from "zod";
import { db } from "../db";
import { Conflict, NotFound } from "../errors";
import { log } from "../log";
import { CSV_PAGE, csvStream, type CsvExport } from "./csv-stream";

// A run out (issue 24; the run itself is lib/runs/), one row per URL in list order with its state and its stored result (joined on the
// result's (jobId, itemKey)), a page of 500 at a time: memory stays flat for 100,000 URLs.

const rowSchema = z.object({
  position: z.coerce.number(),
  url: z.string(),
  state: z.string(),
  attempts: z.coerce.number(),
  jobId: z.string().nullable(),
  itemKey: z.string().nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  storedAt: z.union([z.date(), z.string(), z.number()]).nullable(),
  format: z.string().nullable(),
  markdown: z.string().nullable(),
  html: z.string().nullable(),
  metadata: z.string().nullable(),
});
type Row = z.infer<typeof rowSchema>;

const iso = (v: Row["storedAt"]) => (v === null ? null : new Date(v).toISOString());

/** Which URLs an export holds: one state, or (a collection run) only the new and changed ones. */
export type RunExportFilter = { state?: string; changesOnly?: boolean };

async function page(runId: string, after: number, filter: RunExportFilter): Promise<Row[]> {
  const state = filter.state;
  const rows = filter.changesOnly
    ? await db().$queryRaw`
      SELECT u."position", u."url", u."state", u."attempts", u."jobId", u."itemKey", u."errorCode", u."errorMessage",
        u."storedAt", r."format", r."markdown", r."html", r."metadata"
      FROM "UrlChange" c
      JOIN "RunUrl" u ON u."runId" = c."runId" AND u."position" = c."seq"
      LEFT JOIN "Result" r ON r."jobId" = u."jobId" AND r."itemKey" = u."itemKey" AND u."state" = 'stored'
      WHERE c."runId" = ${runId} AND c."change" IN ('new', 'changed') AND c."seq" > ${after}
      ORDER BY c."seq" LIMIT ${CSV_PAGE}`
    : state
      ? await db().$queryRaw`
      SELECT u."position", u."url", u."state", u."attempts", u."jobId", u."itemKey", u."errorCode", u."errorMessage",
        u."storedAt", r."format", r."markdown", r."html", r."metadata"
      FROM "RunUrl" u LEFT JOIN "Result" r ON r."jobId" = u."jobId" AND r."itemKey" = u."itemKey" AND u."state" = 'stored'
      WHERE u."runId" = ${runId} AND u."state" = ${state} AND u."position" > ${after}
      ORDER BY u."position" LIMIT ${CSV_PAGE}`
      : await db().$queryRaw`
      SELECT u."position", u."url", u."state", u."attempts", u."jobId", u."itemKey", u."errorCode", u."errorMessage",
        u."storedAt", r."format", r."markdown", r."html", r."metadata"
      FROM "RunUrl" u LEFT JOIN "Result" r ON r."jobId" = u."jobId" AND r."itemKey" = u."itemKey" AND u."state" = 'stored'
      WHERE u."runId" = ${runId} AND u."position" > ${after}
      ORDER BY u."position" LIMIT ${CSV_PAGE}`;
  return rowSchema.array().parse(rows);
}

const HEADER = [
  "position",
  "url",
  "state",
  "attempts",
  "jobId",
  "itemKey",
  "errorCode",
  "errorMessage",
  "storedAt",
  "format",
  "markdown",
  "html",
] as const;

async function requireRun(runId: string, filter: RunExportFilter) {
  const run = await db().run.findUnique({ where: { id: runId }, select: { id: true, changesState: true } });
  if (!run) throw new NotFound(`No run ${runId}`);
  if (filter.changesOnly && run.changesState !== "done")
    throw new Conflict(`Run ${runId} has no classified changes (a collection run classifies once it completes)`);
}

export async function exportRunCsv(runId: string, filter: RunExportFilter = {}): Promise<CsvExport> {
  await requireRun(runId, filter);
  return csvStream<number>({
    name: `run-${runId.slice(0, 8)}`,
    header: HEADER,
    nextPage: async (after) => {
      const rows = await page(runId, after ?? -1, filter);
      const last = rows[rows.length - 1];
      return {
        rows: rows.map((r) => [
          r.position,
          r.url,
          r.state,
          r.attempts,
          r.jobId,
          r.itemKey,
          r.errorCode,
          r.errorMessage,
          iso(r.storedAt),
          r.format,
          r.markdown,
          r.html,
        ]),
        position: last ? last.position : null,
      };
    },
  });
}

/** The same rows as JSON Lines, one object a line (the result's metadata parsed). */
export async function exportRunJsonl(runId: string, filter: RunExportFilter = {}): Promise<CsvExport> {
  await requireRun(runId, filter);
  const encoder = new TextEncoder();
  let next: Row[] | null = await page(runId, -1, filter);
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const rows = next ?? [];
          let text = "";
          for (const r of rows) {
            const result =
              r.state === "stored" && r.format !== null
                ? { format: r.format, markdown: r.markdown, html: r.html, metadata: parseMetadata(r.metadata) }
                : null;
            text +=
              JSON.stringify({
                position: r.position,
                url: r.url,
                state: r.state,
                attempts: r.attempts,
                jobId: r.jobId,
                itemKey: r.itemKey,
                errorCode: r.errorCode,
                errorMessage: r.errorMessage,
                storedAt: iso(r.storedAt),
                result,
              }) + "\n";
          }
          if (text) controller.enqueue(encoder.encode(text));
          const last = rows[rows.length - 1];
          if (rows.length < CSV_PAGE || !last) {
            controller.close();
            return;
          }
          next = await page(runId, last.position, filter);
        } catch (err) {
          log.error("run export failed", { error: String(err) });
          controller.error(err);
        }
      },
    },
    { highWaterMark: 1 },
  );
  return {
    body,
    contentType: "application/x-ndjson; charset=utf-8",
    filename: `tally-run-${runId.slice(0, 8)}.jsonl`,
  };
}
