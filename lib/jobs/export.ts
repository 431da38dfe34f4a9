import "server-only";
import { z } from "zod";
import { db } from "../db";
import { jobListQuerySchema, jobsQuery } from "./query";
import { CSV_PAGE, type CsvExport, csvStream } from "../results";

// GET /api/jobs/export: the Jobs list as CSV with the list's own filters and order (status, outcome,
// kind, q, from, to, sort), read in keyset pages through the same query as the page, so the file
// holds exactly the rows the list would show page after page.

export const jobExportQuerySchema = jobListQuerySchema.omit({ limit: true, cursor: true });
export type JobExportQuery = z.output<typeof jobExportQuerySchema>;

export const JOB_CSV_COLUMNS = [
  "jobId",
  "kind",
  "url",
  "platformStatus",
  "outcome",
  "origin",
  "attempts",
  "resultCount",
  "tokensCharged",
  "errorCode",
  "errorMessage",
  "resubmittedFromId",
  "resubmittedAsId",
  "createdAt",
  "outcomeAt",
] as const;

/** The Jobs list's keyset position: [createdAt in epoch ms, id]. */
type Position = [number, string];

export function exportJobs(query: JobExportQuery, now = new Date()): Promise<CsvExport> {
  return csvStream<Position>({
    name: "jobs",
    header: JOB_CSV_COLUMNS,
    now,
    async nextPage(after) {
      const q = await jobsQuery({ ...query, limit: CSV_PAGE, cursor: after ?? undefined });
      const rows = await db().job.findMany({ ...q, take: CSV_PAGE });
      const last = rows.at(-1);
      return {
        rows: rows.map((j) => [
          j.id,
          j.kind,
          j.url,
          j.platformStatus,
          j.outcome,
          j.origin,
          j.attempts,
          j.resultCount,
          j.tokensCharged,
          j.errorCode,
          j.errorMessage,
          j.resubmittedFromId,
          j.resubmittedAsId,
          j.createdAt.toISOString(),
          j.outcomeAt?.toISOString() ?? null,
        ]),
        position: last ? [last.createdAt.getTime(), last.id] : null,
      };
    },
  });
}
