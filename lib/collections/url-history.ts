import "server-only";
import { db } from "../db";
import { BadRequest, NotFound } from "../errors";
import { decodeKeyset, encodeCursor, textId } from "../keyset";
import { CHANGES, readEscalation, rungName, rungsTriedOf, URL_STATES, urlProblem } from "../runs";
import { TRIGGERS, type UrlHistory, type UrlHistoryItem } from "./contracts";

// One URL across a collection's runs (issue 39): newest run first, what became of the URL in each (state,
// error, change, the rung that stored it, rungs tried, tokens, the failed check), and the rung the next
// run starts it at. Keyset-paged on the runs' (createdAt, id); runs whose list did not hold the URL are
// skipped, and one page looks at no more than SCAN_RUNS runs so a URL that left the list long ago cannot
// make one request read every run (the cursor then points past the runs already looked at).

const HISTORY_CURSOR = "uh1";
const SCAN_BATCH = 100;
const SCAN_RUNS = 1000;

const pick = <T extends string>(values: readonly T[], v: string | null): T | null =>
  values.find((x) => x === v) ?? null;

export async function urlHistory(
  collectionId: string,
  q: { url: string; cursor?: string; limit: number },
): Promise<UrlHistory> {
  const problem = urlProblem(q.url);
  if (problem) throw new BadRequest(`url ${problem}`, [{ path: "url", message: problem }]);
  const after = decodeKeyset(HISTORY_CURSOR, q.cursor, textId);
  const c = await db().collection.findUnique({ where: { id: collectionId }, select: { escalation: true } });
  if (!c) throw new NotFound(`No collection ${collectionId}`);
  const remembered = await db().collectionRung.findUnique({
    where: { collectionId_url: { collectionId, url: q.url } },
  });

  const items: UrlHistoryItem[] = [];
  let cursor = after;
  let scanned = 0;
  let runsLeft = true;
  let full = false;
  let lastShown: { at: Date; id: string } | undefined;
  let lastLooked: { at: Date; id: string } | undefined;
  while (!full && runsLeft && scanned < SCAN_RUNS) {
    const at = cursor;
    const runs = await db().run.findMany({
      where: {
        collectionId,
        ...(at ? { createdAt: { lte: at.at }, OR: [{ createdAt: { lt: at.at } }, { id: { lt: at.id } }] } : {}),
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: SCAN_BATCH,
      select: { id: true, createdAt: true, startedAt: true, trigger: true, escalation: true },
    });
    runsLeft = runs.length === SCAN_BATCH;
    const last = runs[runs.length - 1];
    if (!last) break;
    cursor = { at: last.createdAt, id: last.id };
    const ids = runs.map((r) => r.id);
    const [rows, changes] = await Promise.all([
      db().runUrl.findMany({ where: { runId: { in: ids }, url: q.url } }),
      db().urlChange.findMany({ where: { runId: { in: ids }, url: q.url }, select: { runId: true, change: true } }),
    ]);
    const byRun = new Map(rows.map((r) => [r.runId, r]));
    const changeOf = new Map(changes.map((r) => [r.runId, r.change]));
    for (const run of runs) {
      const u = byRun.get(run.id);
      if (u && items.length === q.limit) {
        full = true; // one more match: the next page starts after the last run shown
        break;
      }
      scanned++;
      lastLooked = { at: run.createdAt, id: run.id };
      if (!u) continue;
      lastShown = lastLooked;
      items.push({
        runId: run.id,
        startedAt: (run.startedAt ?? run.createdAt).toISOString(),
        trigger: pick(TRIGGERS, run.trigger) ?? "manual",
        state: pick(URL_STATES, u.state) ?? "pending",
        errorCode: u.errorCode,
        change: pick(CHANGES, changeOf.get(run.id) ?? null),
        rung: u.rung,
        rungName: rungName(readEscalation(run.escalation)[u.rung]),
        rungsTried: rungsTriedOf(u.rungsTried),
        tokensCharged: u.tokensCharged,
        checkName: u.checkName,
        checkExcerpt: u.checkExcerpt,
      });
    }
  }
  // A full page continues after its last run shown; a page cut by SCAN_RUNS after the last run looked at.
  const next = full ? lastShown : runsLeft ? lastLooked : undefined;
  return {
    url: q.url,
    remembered: remembered
      ? {
          rung: remembered.rung,
          rungName: rungName(readEscalation(c.escalation)[remembered.rung]),
          updatedAt: remembered.updatedAt.toISOString(),
        }
      : null,
    items,
    nextCursor: next ? encodeCursor(HISTORY_CURSOR, [next.at.getTime(), next.id]) : null,
  };
}
