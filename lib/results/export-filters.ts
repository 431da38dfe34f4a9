import "server-only";
import { Prisma } from "@/generated/prisma/client";
import type { ExportQuery } from "./contracts";

// The export's filters as SQL conditions on result r and job j. The job filters mean what they mean
// on GET /api/jobs: status is the platform's status, from/to bound the job's creation, and q is an
// exact job id or a URL prefix with the scheme optional (lib/jobs/query.ts searches the same way).

const TOP = String.fromCodePoint(0x10ffff);

export function exportConditions(q: ExportQuery): Prisma.Sql[] {
  const and: Prisma.Sql[] = [];
  if (q.since) and.push(Prisma.sql`r."createdAt" >= ${q.since}`);
  if (q.until) and.push(Prisma.sql`r."createdAt" < ${q.until}`);
  if (q.jobId) and.push(Prisma.sql`r."jobId" = ${q.jobId}`);
  if (q.kind) and.push(Prisma.sql`j."kind" = ${q.kind}`);
  if (q.status) and.push(Prisma.sql`j."platformStatus" = ${q.status}`);
  if (q.outcome) and.push(Prisma.sql`j."outcome" = ${q.outcome}`);
  if (q.from) and.push(Prisma.sql`j."createdAt" >= ${q.from}`);
  if (q.to) and.push(Prisma.sql`j."createdAt" < ${q.to}`);
  if (q.q) {
    const prefixes = /^https?:\/\//i.test(q.q) ? [q.q] : [q.q, `https://${q.q}`, `http://${q.q}`];
    const urls = prefixes.map((p) => Prisma.sql`(j."url" >= ${p} AND j."url" < ${p + TOP})`);
    and.push(Prisma.sql`(j."id" = ${q.q} OR ${Prisma.join(urls, " OR ")})`);
  }
  return and;
}
