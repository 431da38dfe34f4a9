import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { getConfig } from "../config";
import { db, dialect } from "../db";

// Retention of page bodies (TALLY_RESULT_RETENTION_DAYS, issue 40): results stored longer ago than the
// retention lose their bodies, inline or named in the body store; the row stays (its URL, status,
// metadata, sizes) with bodyRemovedAt, which readers show as "body removed by retention". The objects no
// row names any more go with the next sweep of the body store (lib/bodies/sweep.ts), after its grace.
// In batches by the createdAt index, a pause between them: SQLite has one writer.

const DAY = 86_400_000;

/** The SET clause both retentions write: no body left, inline or named, and when it went. */
const removed = (now: Date) => Prisma.sql`"markdown" = NULL, "html" = NULL, "markdownKey" = NULL,
  "markdownCodec" = NULL, "htmlKey" = NULL, "htmlCodec" = NULL, "bodyRemovedAt" = ${now}`;
const hasBody = Prisma.sql`"bodyRemovedAt" IS NULL
  AND ("markdown" IS NOT NULL OR "html" IS NOT NULL OR "markdownKey" IS NOT NULL OR "htmlKey" IS NOT NULL)`;

/** Removes the bodies of results past their retention; how many results lost them. 0 days: none. */
export async function expireResultBodies({
  now = new Date(),
  batch = 1_000,
  pauseMs = 20,
}: { now?: Date; batch?: number; pauseMs?: number } = {}): Promise<number> {
  const days = getConfig().TALLY_RESULT_RETENTION_DAYS;
  if (days <= 0) return 0;
  const cutoff = new Date(now.getTime() - days * DAY);
  const rowRef = Prisma.raw(dialect() === "postgres" ? "ctid" : "rowid");
  let total = 0;
  for (;;) {
    const n = await db().$executeRaw`
      UPDATE "Result" SET ${removed(now)}
      WHERE ${rowRef} IN (
        SELECT ${rowRef} FROM "Result" WHERE "createdAt" < ${cutoff} AND ${hasBody}
        ORDER BY "createdAt" LIMIT ${batch})`;
    total += n;
    if (n < batch) return total;
    await new Promise((r) => setTimeout(r, pauseMs));
  }
}

// Per collection (keepBodiesRuns, issue 40): the bodies of its runs older than its last N completed runs
// go the same way (bodyRemovedAt; the rows, the runs' URL ledger, states, hashes and change rows stay).
// A run still going keeps its bodies whatever its age, and the N completed runs counted are the newest
// ones, so change tracking always has its previous run's bodies. A body key that a newer run's row still
// names keeps its object: the sweep deletes only what no row names, and a row that lost its body names
// nothing. A run done is marked (Run.bodiesExpiredAt) and not looked at again.

/** Removes the bodies of results of collection runs past their collection's last N; how many results lost them. */
export async function expireCollectionRunBodies({
  now = new Date(),
  batch = 1_000,
  pauseMs = 20,
}: { now?: Date; batch?: number; pauseMs?: number } = {}): Promise<number> {
  const rowRef = Prisma.raw(dialect() === "postgres" ? "r.ctid" : "r.rowid");
  const bareRef = Prisma.raw(dialect() === "postgres" ? "ctid" : "rowid");
  const collections = await db().collection.findMany({
    where: { keepBodiesRuns: { not: null } },
    select: { id: true, keepBodiesRuns: true },
  });
  let total = 0;
  for (const c of collections) {
    const keep = c.keepBodiesRuns ?? 0;
    if (keep < 1) continue;
    // The oldest of the N newest completed runs: runs made before it are past the limit.
    const kept = await db().run.findMany({
      where: { collectionId: c.id, state: "completed" },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: keep - 1,
      take: 1,
      select: { createdAt: true },
    });
    if (kept.length === 0) continue;
    const due = await db().run.findMany({
      where: {
        collectionId: c.id,
        createdAt: { lt: kept[0].createdAt },
        state: { not: "active" },
        bodiesExpiredAt: null,
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true },
    });
    for (const run of due) {
      for (;;) {
        const n = await db().$executeRaw`
          UPDATE "Result" SET ${removed(now)}
          WHERE ${bareRef} IN (
            SELECT ${rowRef} FROM "Result" r
            WHERE r."jobId" IN (SELECT "jobId" FROM "RunChunk" WHERE "runId" = ${run.id} AND "jobId" IS NOT NULL)
              AND ${hasBody}
            LIMIT ${batch})`;
        total += n;
        if (n < batch) break;
        await new Promise((r) => setTimeout(r, pauseMs));
      }
      await db().run.update({ where: { id: run.id }, data: { bodiesExpiredAt: now } });
    }
  }
  return total;
}
