import "server-only";
import { db } from "../db";
import { NotFound } from "../errors";
import { decodeKeyset, pageOf, textId } from "../keyset";
import { toRunView } from "../runs";
import type { Run } from "@/generated/prisma/client";
import { TICK_OUTCOMES, type CollectionDetail, type CollectionList, type CollectionRun } from "./contracts";
import { describeSchedule } from "./schedule";
import { settingsOf, toSummary } from "./save";
import { monthSpend } from "./spend";

// What a collection says about itself: its row, its last 20 runs (the counters are on each run row)
// and its last 20 ticks; the list shows each collection's last run.

const COLLECTIONS_CURSOR = "co1";
const HISTORY = 20;

function toCollectionRun(r: Run): CollectionRun {
  const v = toRunView(r);
  return {
    id: v.id,
    state: v.state,
    trigger: v.trigger ?? "manual",
    counts: v.counts,
    changes: v.changes,
    createdAt: v.createdAt,
  };
}

export async function getCollection(id: string, opts: { withUrls?: boolean } = {}): Promise<CollectionDetail> {
  const c = await db().collection.findUnique({ where: { id } });
  if (!c) throw new NotFound(`No collection ${id}`);
  const [runs, ticks] = await Promise.all([
    db().run.findMany({ where: { collectionId: id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: HISTORY }),
    db().collectionTick.findMany({ where: { collectionId: id }, orderBy: { createdAt: "desc" }, take: HISTORY }),
  ]);
  const s = settingsOf(c);
  const tokensThisMonth = await monthSpend(db(), id, new Date());
  return {
    ...toSummary(c),
    scheduleText: c.schedule ? describeSchedule(c.schedule, c.timezone) : null,
    formats: s.formats,
    renderJs: s.renderJs,
    ignorePatterns: s.ignorePatterns,
    overlap: s.overlap,
    checks: s.checks,
    escalation: s.escalation,
    maxTokens: s.maxTokens,
    monthlyMaxTokens: s.monthlyMaxTokens,
    keepBodiesRuns: s.keepBodiesRuns,
    tokensThisMonth,
    queuedFor: c.queuedFor?.toISOString() ?? null,
    createdBy: c.createdBy,
    createdAt: c.createdAt.toISOString(),
    runs: runs.map(toCollectionRun),
    ticks: ticks.map((t) => ({
      scheduledFor: t.scheduledFor.toISOString(),
      outcome: TICK_OUTCOMES.find((o) => o === t.outcome) ?? "skipped",
      runId: t.runId,
      reason: t.reason,
    })),
    ...(opts.withUrls ? { urls: c.urls } : {}),
  };
}

/** Collections, newest first, keyset-paged on (createdAt, id), each with its last run. */
export async function listCollections(q: { cursor?: string; limit: number }): Promise<CollectionList> {
  const cur = decodeKeyset(COLLECTIONS_CURSOR, q.cursor, textId);
  const rows = await db().collection.findMany({
    where: cur ? { createdAt: { lte: cur.at }, OR: [{ createdAt: { lt: cur.at } }, { id: { lt: cur.id } }] } : {},
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    omit: { urls: true },
  });
  const page = pageOf(COLLECTIONS_CURSOR, rows, q.limit, (r) => r.createdAt);
  const items = await Promise.all(
    page.items.map(async (c) => {
      const last = await db().run.findFirst({
        where: { collectionId: c.id },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      });
      return {
        ...toSummary({ ...c, urls: "" }),
        scheduleText: c.schedule ? describeSchedule(c.schedule, c.timezone) : null,
        lastRun: last ? toCollectionRun(last) : null,
      };
    }),
  );
  return { items, nextCursor: page.nextCursor };
}
