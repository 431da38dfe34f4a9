import "server-only";
import { db } from "../db";
import { CSV_PAGE, type CsvExport, csvStream } from "../results";
import { filterWhere, type DeadLetterFilter } from "./list";

// GET /api/dead-letters/export: the dead letters the list's filter selects (state, kind, errorCode,
// jobId), newest first like the list, as CSV in keyset pages on the id.

export const DEAD_LETTER_CSV_COLUMNS = [
  "id",
  "jobId",
  "kind",
  "state",
  "errorCode",
  "errorMessage",
  "attempts",
  "jobUrl",
  "jobOutcome",
  "resolution",
  "resolvedBy",
  "resolvedAt",
  "createdAt",
] as const;

export function exportDeadLetters(filter: DeadLetterFilter, now = new Date()): Promise<CsvExport> {
  const where = filterWhere(filter);
  return csvStream<number>({
    name: "dead-letters",
    header: DEAD_LETTER_CSV_COLUMNS,
    now,
    async nextPage(after) {
      const rows = await db().deadLetter.findMany({
        where: after === null ? where : { AND: [where, { id: { lt: after } }] },
        orderBy: { id: "desc" },
        take: CSV_PAGE,
      });
      const jobIds = [...new Set(rows.flatMap((r) => (r.jobId ? [r.jobId] : [])))];
      const jobs = new Map(
        (
          await db().job.findMany({ where: { id: { in: jobIds } }, select: { id: true, url: true, outcome: true } })
        ).map((j) => [j.id, j]),
      );
      return {
        rows: rows.map((r) => {
          const job = r.jobId ? jobs.get(r.jobId) : undefined;
          return [
            r.id,
            r.jobId,
            r.kind,
            r.state,
            r.errorCode,
            r.errorMessage,
            r.attempts,
            job?.url ?? null,
            job?.outcome ?? null,
            r.resolution,
            r.resolvedBy,
            r.resolvedAt?.toISOString() ?? null,
            r.createdAt.toISOString(),
          ];
        }),
        position: rows.at(-1)?.id ?? null,
      };
    },
  });
}
