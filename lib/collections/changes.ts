import "server-only";
import { z } from "zod";
import { db } from "../db";
import { Conflict, NotFound } from "../errors";
import { decodeCursor, encodeCursor } from "../keyset";
import { type BodyAudience, resolveRow, resultName } from "../results";
import { CHANGES, type ChangeCounts } from "../runs";
import type { ChangePage } from "./contracts";
import { DIFF_CONTEXT, judgeDiff, type DiffBlock, type DiffCut } from "../judging";

// A collection run's changes (GET /api/runs/{id}/changes) keyset-paged on the URL's place, and one
// URL's two versions as a line diff (/runs/{id}/diff?url=…, bounded: lib/judging/line-diff.ts). Scraped content stays text: the page
// renders the lines inertly.

const CHANGES_CURSOR = "ch1";
const seqPosition = z.tuple([z.number().int().min(0)]);
const change = z.enum(CHANGES);

async function classifiedRun(runId: string) {
  const run = await db().run.findUnique({
    where: { id: runId },
    select: {
      collectionId: true,
      changesState: true,
      changesNew: true,
      changesChanged: true,
      changesUnchanged: true,
      changesGone: true,
    },
  });
  if (!run) throw new NotFound(`No run ${runId}`);
  if (!run.collectionId) throw new Conflict(`Run ${runId} is not a collection run: it has no changes`);
  if (run.changesState !== "done")
    throw new Conflict(`Run ${runId}'s changes are not classified yet (it classifies once it completes)`, {
      changesState: run.changesState,
    });
  const counts: ChangeCounts = {
    new: run.changesNew ?? 0,
    changed: run.changesChanged ?? 0,
    unchanged: run.changesUnchanged ?? 0,
    gone: run.changesGone ?? 0,
  };
  return counts;
}

export async function listChanges(
  runId: string,
  q: { change?: string; cursor?: string; limit: number },
): Promise<ChangePage> {
  const counts = await classifiedRun(runId);
  const after = decodeCursor(CHANGES_CURSOR, q.cursor, seqPosition)?.[0] ?? -1;
  const rows = await db().urlChange.findMany({
    where: { runId, seq: { gt: after }, ...(q.change ? { change: q.change } : {}) },
    orderBy: { seq: "asc" },
    take: q.limit + 1,
  });
  const items = rows.slice(0, q.limit);
  const last = items[items.length - 1];
  return {
    items: items.map((r) => ({
      url: r.url,
      change: change.parse(r.change),
      resultId: r.resultId,
      previousResultId: r.previousResultId,
    })),
    counts,
    nextCursor: rows.length > q.limit && last ? encodeCursor(CHANGES_CURSOR, [last.seq]) : null,
  };
}

export type UrlDiff = {
  runId: string;
  url: string;
  change: (typeof CHANGES)[number];
  resultId: number | null;
  previousResultId: number | null;
  /** Empty when the diff is whole and exact. */
  cut: DiffCut[];
  /** The changes with their context, the unchanged stretches between them collapsed to a count. */
  blocks: DiffBlock[];
  /** How many changes; the added and removed lines in all. */
  changes: number;
  added: number;
  removed: number;
  /** Bodies that cannot be read back as stored (missing or corrupt in the body store), each naming its
   * result: no diff is shown then (lines is empty), never one against an empty page. */
  bodyErrors: string[];
};

async function contentOf(
  resultId: number | null,
  audience: BodyAudience,
): Promise<{ text: string; error: string | null }> {
  if (resultId === null) return { text: "", error: null };
  const r = await db().result.findUnique({ where: { id: resultId } });
  if (!r) return { text: "", error: null };
  // The markdown, else the html: only the one shown is read from the body store.
  const md = r.markdown !== null || r.markdownKey !== null;
  const body = await resolveRow(
    md ? { ...r, html: null, htmlKey: null, htmlCodec: null } : { ...r, markdown: null, markdownKey: null },
    resultName(r),
    { ...audience, unavailable: "report" },
  );
  return { text: body.markdown ?? body.html ?? "", error: body.bodyError };
}

const NO_DIFF = { blocks: [], changes: 0, added: 0, removed: 0 };

/** The bounded line diff, on the judging pool (issue 47): two versions written by a stranger are not
 *  aligned on the thread that serves every page. Stopped at the pool's budget, it shows no lines and
 *  says why. */
async function diffOffThread(before: string, after: string, context: number) {
  const j = await judgeDiff(before, after, context);
  return j.ok ? j.value : { ...NO_DIFF, cut: ["stopped" as const] };
}

/** The diff of a URL's page in a run against its previous run's, as changes with `context` lines around
 *  each (Infinity: the whole page). */
export async function diffUrl(
  runId: string,
  url: string,
  audience: BodyAudience = {},
  context = DIFF_CONTEXT,
): Promise<UrlDiff> {
  await classifiedRun(runId);
  const row = await db().urlChange.findFirst({ where: { runId, url } });
  if (!row) throw new NotFound(`Run ${runId} has no change for ${url}`);
  const [before, after] = await Promise.all([
    contentOf(row.previousResultId, audience),
    contentOf(row.resultId, audience),
  ]);
  const bodyErrors = [before.error, after.error].filter((e) => e !== null);
  const view = bodyErrors.length > 0 ? { ...NO_DIFF, cut: [] } : await diffOffThread(before.text, after.text, context);
  return {
    runId,
    url,
    change: change.parse(row.change),
    resultId: row.resultId,
    previousResultId: row.previousResultId,
    ...view,
    bodyErrors,
  };
}
