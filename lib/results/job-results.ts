import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import { NotFound } from "../errors";
import { encodeCursor } from "../keyset";
import { JOB_RESULTS_TAG, type JobResultsPage, type JobResultsQuery } from "./contracts";
import type { BodyAudience } from "./bodies";
import { selectRows, toItem } from "./rows";

// One job's stored results with their full content, in the order they were stored (id), paged by
// keyset on the (jobId, id) index: page 10,000 of a crawl costs what page 1 does. `status` (the
// failed items, say) filters that same walk of the job's own results. A body the store cannot give now
// is said by row (bodyError `body_unavailable: …`, issue 50): the page is answered, never a 5xx.

export async function listJobResults(
  jobId: string,
  query: JobResultsQuery,
  audience: BodyAudience = {},
): Promise<JobResultsPage> {
  const job = await db().job.findUnique({ where: { id: jobId }, select: { id: true } });
  if (!job) throw new NotFound(`No job ${jobId}`);
  const after = query.cursor?.[0] ?? 0;
  const rows = await selectRows(
    [
      Prisma.sql`r."jobId" = ${jobId}`,
      Prisma.sql`r."id" > ${after}`,
      ...(query.status ? [Prisma.sql`r."status" = ${query.status}`] : []),
    ],
    Prisma.sql`r."id" ASC`,
    query.limit + 1,
    { ...audience, unavailable: "report" },
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(toItem),
    nextCursor: rows.length > query.limit && last ? encodeCursor(JOB_RESULTS_TAG, [last.id]) : null,
  };
}
