import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { type BodyAudience, bodyColumns, bodyColumnsShape, resolveBodies } from "./bodies";
import { parseMetadata } from "./rows";
import { z } from "zod";
import { db } from "../db";
import { Conflict, NotFound } from "../errors";
import { log } from "../log";
import { bodySize, CSV_PAGE, csvStream, PAGE_BODY_CHARS, withinBudget, type CsvExport } from "./csv-stream";

// A run out (issue 24; the run itself is lib/runs/), one row per URL in list order with its state and its stored result (joined on the
// result's (jobId, itemKey)), a page of 500 at a time (fewer when their bodies pass PAGE_BODY_CHARS):
// memory stays flat for 100,000 URLs.

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
  ...bodyColumnsShape,
  metadata: z.string().nullable(),
  rung: z.coerce.number(),
  rungsTried: z.string().nullable(),
  tokensCharged: z.coerce.number(),
  checkName: z.string().nullable(),
  checkExcerpt: z.string().nullable(),
});
/** A row as read, its result's bodies resolved (bodies.ts). */
type Row = z.infer<typeof rowSchema> & { bodyError: string | null };

const iso = (v: Row["storedAt"]) => (v === null ? null : new Date(v).toISOString());

const names = z.array(z.string());
/** RunUrl.rungsTried (a JSON list of rung names, oldest first, lib/runs); [] when absent or unreadable. */
function rungsTried(json: string | null): string[] {
  if (!json) return [];
  try {
    const parsed = names.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** Which URLs an export holds: one state, or (a collection run) only the new and changed ones. */
export type RunExportFilter = { state?: string; changesOnly?: boolean };

/** The FROM and WHERE of a run export's rows after `after`, and the column its position is (its order). */
function source(runId: string, after: number, filter: RunExportFilter) {
  const result = Prisma.sql`LEFT JOIN "Result" r ON r."jobId" = u."jobId" AND r."itemKey" = u."itemKey" AND u."state" = 'stored'`;
  if (filter.changesOnly)
    return {
      from: Prisma.sql`"UrlChange" c
      JOIN "RunUrl" u ON u."runId" = c."runId" AND u."position" = c."seq" ${result}
      WHERE c."runId" = ${runId} AND c."change" IN ('new', 'changed') AND c."seq" > ${after}`,
      position: Prisma.sql`c."seq"`,
    };
  const state = filter.state ? Prisma.sql`AND u."state" = ${filter.state}` : Prisma.empty;
  return {
    from: Prisma.sql`"RunUrl" u ${result} WHERE u."runId" = ${runId} ${state} AND u."position" > ${after}`,
    position: Prisma.sql`u."position"`,
  };
}

const sizeRow = z.object({ position: z.coerce.number(), size: z.coerce.number() });

/**
 * The rows after `after`: up to CSV_PAGE, fewer once their results' bodies pass `budget` (sizes read
 * first, then the bodies of the rows that fit, always one at least). `more` is false once nothing follows.
 */
export async function runExportPage(
  runId: string,
  after: number,
  filter: RunExportFilter,
  budget = PAGE_BODY_CHARS,
  audience: BodyAudience = {},
): Promise<{ rows: Row[]; more: boolean }> {
  const { from, position } = source(runId, after, filter);
  const sizes = sizeRow.array().parse(
    await db().$queryRaw`SELECT ${position} AS "position", ${bodySize("r")} AS "size" FROM ${from}
      ORDER BY ${position} LIMIT ${CSV_PAGE}`,
  );
  const n = withinBudget(
    sizes.map((s) => s.size),
    budget,
  );
  const end = sizes[n - 1];
  if (!end) return { rows: [], more: false };
  const rows = await db().$queryRaw`
      SELECT u."position", u."url", u."state", u."attempts", u."jobId", u."itemKey", u."errorCode", u."errorMessage",
        u."storedAt", r."format", ${bodyColumns("r")}, r."metadata",
        u."rung", u."rungsTried", u."tokensCharged", u."checkName", u."checkExcerpt"
      FROM ${from} AND ${position} <= ${end.position}
      ORDER BY ${position} LIMIT ${n}`;
  const resolved = await resolveBodies(
    rowSchema.array().parse(rows),
    (r) => `the result of URL ${r.position} (${r.url}), item ${r.itemKey} of job ${r.jobId}`,
    // A stream cannot change its status once it began: a body the store cannot give now is said by row.
    { ...audience, unavailable: "report" },
  );
  return { rows: resolved, more: n < sizes.length || sizes.length === CSV_PAGE };
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
  "bodyError",
  // Spend and content checks (issue 39), after the columns consumers already read by position.
  "rung",
  "rungsTried",
  "tokensCharged",
  "checkName",
  "checkExcerpt",
] as const;

async function requireRun(runId: string, filter: RunExportFilter) {
  const run = await db().run.findUnique({ where: { id: runId }, select: { id: true, changesState: true } });
  if (!run) throw new NotFound(`No run ${runId}`);
  if (filter.changesOnly && run.changesState !== "done")
    throw new Conflict(`Run ${runId} has no classified changes (a collection run classifies once it completes)`);
}

export async function exportRunCsv(
  runId: string,
  filter: RunExportFilter = {},
  audience: BodyAudience = {},
): Promise<CsvExport> {
  await requireRun(runId, filter);
  return csvStream<number>({
    name: `run-${runId.slice(0, 8)}`,
    header: HEADER,
    nextPage: async (after) => {
      const { rows, more } = await runExportPage(runId, after ?? -1, filter, PAGE_BODY_CHARS, audience);
      const last = rows[rows.length - 1];
      return {
        more,
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
          r.bodyError,
          r.rung,
          rungsTried(r.rungsTried).join("; "),
          r.tokensCharged,
          r.checkName,
          r.checkExcerpt,
        ]),
        position: last ? last.position : null,
      };
    },
  });
}

/** The same rows as JSON Lines, one object a line (the result's metadata parsed). */
export async function exportRunJsonl(
  runId: string,
  filter: RunExportFilter = {},
  audience: BodyAudience = {},
): Promise<CsvExport> {
  await requireRun(runId, filter);
  const encoder = new TextEncoder();
  let next: { rows: Row[]; more: boolean } | null = await runExportPage(runId, -1, filter, PAGE_BODY_CHARS, audience);
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const rows = next?.rows ?? [];
          let text = "";
          for (const r of rows) {
            const result =
              r.state === "stored" && r.format !== null
                ? {
                    format: r.format,
                    markdown: r.markdown,
                    html: r.html,
                    bodyError: r.bodyError,
                    metadata: parseMetadata(r.metadata),
                  }
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
                rung: r.rung,
                rungsTried: rungsTried(r.rungsTried),
                tokensCharged: r.tokensCharged,
                check: r.checkName === null ? null : { name: r.checkName, excerpt: r.checkExcerpt },
                result,
              }) + "\n";
          }
          if (text) controller.enqueue(encoder.encode(text));
          const last = rows[rows.length - 1];
          if (!next?.more || !last) {
            controller.close();
            return;
          }
          next = await runExportPage(runId, last.position, filter, PAGE_BODY_CHARS, audience);
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
