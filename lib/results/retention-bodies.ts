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
      UPDATE "Result" SET "markdown" = NULL, "html" = NULL, "markdownKey" = NULL, "markdownCodec" = NULL,
        "htmlKey" = NULL, "htmlCodec" = NULL, "bodyRemovedAt" = ${now}
      WHERE ${rowRef} IN (
        SELECT ${rowRef} FROM "Result" WHERE "createdAt" < ${cutoff} AND "bodyRemovedAt" IS NULL
          AND ("markdown" IS NOT NULL OR "html" IS NOT NULL OR "markdownKey" IS NOT NULL OR "htmlKey" IS NOT NULL)
        ORDER BY "createdAt" LIMIT ${batch})`;
    total += n;
    if (n < batch) return total;
    await new Promise((r) => setTimeout(r, pauseMs));
  }
}
