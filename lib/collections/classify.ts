import "server-only";
import { z } from "zod";
import { db, transaction } from "../db";
import { enqueueEvents, hasSubscribers } from "../outbound";
import type { ChangeCounts } from "../runs";

// What changed since the collection's previous completed run, set-wise in SQL (one INSERT … SELECT,
// portable to both stores): each URL stored now is new (not stored last time), changed (fingerprint
// differs) or unchanged; each URL stored last time and failed or absent now is gone. The rows, the run's
// change counts and one url.changed event per new or changed URL (the outbox) commit together. Run by
// the classify_run queue item that the run's completion queued; running it again gives the same rows
// and, by the events' stable webhook-ids, no second delivery.

export const URL_CHANGED = "url.changed";

const countRow = z.object({ change: z.string(), n: z.coerce.number() });
const subjectRow = z.object({ seq: z.coerce.number(), change: z.string() });
const EVENT_PAGE = 5000;

export async function classifyRun(runId: string): Promise<ChangeCounts | null> {
  const run = await db().run.findUnique({
    where: { id: runId },
    select: { collectionId: true, state: true, total: true, createdAt: true },
  });
  if (!run?.collectionId || run.state !== "completed") return null;
  const collectionId = run.collectionId;
  const previous = await db().run.findFirst({
    where: { collectionId, state: "completed", createdAt: { lte: run.createdAt }, id: { not: runId } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true },
  });
  const prev = previous?.id ?? "";
  return transaction(async (tx) => {
    await tx.urlChange.deleteMany({ where: { runId } });
    await tx.$executeRaw`
      INSERT INTO "UrlChange" ("runId", "seq", "url", "change", "resultId", "previousResultId")
      SELECT c."runId", c."position", c."url",
        CASE WHEN c."state" <> 'stored' THEN 'gone'
             WHEN p."url" IS NULL THEN 'new'
             WHEN p."fingerprint" = c."fingerprint" THEN 'unchanged'
             ELSE 'changed' END,
        CASE WHEN c."state" = 'stored' THEN c."resultId" END,
        p."resultId"
      FROM "RunUrl" c
      LEFT JOIN "RunUrl" p ON p."runId" = ${prev} AND p."url" = c."url" AND p."state" = 'stored'
      WHERE c."runId" = ${runId} AND (c."state" = 'stored' OR p."url" IS NOT NULL)`;
    await tx.$executeRaw`
      INSERT INTO "UrlChange" ("runId", "seq", "url", "change", "resultId", "previousResultId")
      SELECT ${runId}, ${run.total} + p."position", p."url", 'gone', NULL, p."resultId"
      FROM "RunUrl" p
      WHERE p."runId" = ${prev} AND p."state" = 'stored'
        AND NOT EXISTS (SELECT 1 FROM "RunUrl" c WHERE c."runId" = ${runId} AND c."url" = p."url")`;
    const rows = countRow
      .array()
      .parse(
        await tx.$queryRaw`SELECT "change", COUNT(*) AS "n" FROM "UrlChange" WHERE "runId" = ${runId} GROUP BY "change"`,
      );
    const n = (c: string) => rows.find((r) => r.change === c)?.n ?? 0;
    const counts: ChangeCounts = { new: n("new"), changed: n("changed"), unchanged: n("unchanged"), gone: n("gone") };
    await tx.run.update({
      where: { id: runId },
      data: {
        changesState: "done",
        changesNew: counts.new,
        changesChanged: counts.changed,
        changesUnchanged: counts.unchanged,
        changesGone: counts.gone,
      },
    });
    if (counts.new + counts.changed > 0 && (await hasSubscribers(tx, URL_CHANGED))) {
      let after = -1;
      for (;;) {
        const page = subjectRow.array().parse(
          await tx.$queryRaw`SELECT "seq", "change" FROM "UrlChange"
            WHERE "runId" = ${runId} AND "change" IN ('new', 'changed') AND "seq" > ${after}
            ORDER BY "seq" LIMIT ${EVENT_PAGE}`,
        );
        if (page.length === 0) break;
        await enqueueEvents(
          tx,
          URL_CHANGED,
          page.map((r) => ({ subjectId: `${runId}:${r.seq}`, outcome: r.change })),
        );
        after = page[page.length - 1]?.seq ?? after;
        if (page.length < EVENT_PAGE) break;
      }
    }
    return counts;
  });
}
