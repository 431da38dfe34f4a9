import "server-only";
import { z } from "zod";
import { storedChecks, type Checks } from "../content-checks";
import { db } from "../db";
import { judgeChecks } from "../judging";
import { countJudgedPage } from "../metrics";

// Step 1 of the store path (issue 39), before the database transaction that inserts the rows opens (on
// SQLite every statement holds the one writer slot: no parsing there). For a job that carries a run's
// chunk (RunChunk.jobId), the run's `checks` run on each completed row: the verdict, the check's name
// and a plain-text excerpt (at most 200 characters) go on the row. A row whose verdict is not `ok`
// keeps NO body (its markdown and html are dropped here), so a block page is never stored, never
// fingerprinted, never sent to a sink. A job outside a run, and a failed item, get null.
//
// The checks run on the judging pool's threads (lib/judging, issue 47), never on this one: a page that
// takes its thread past TALLY_JUDGE_BUDGET_MS (a selector built to explode, a page built to choke the
// parser) or past its memory is `suspect` with the check `budget_exceeded` / `memory_exceeded`, and
// the excerpt says how long it ran. A task that fails for any other reason (the pool's code missing)
// throws: the item is retried, never stored as judged.

export type Verdict = "ok" | "suspect" | "blocked" | "not_found" | "transient";

export type JudgedFields = {
  checkVerdict: Verdict | null;
  checkName: string | null;
  checkExcerpt: string | null;
};

type Judgeable = {
  status: string;
  markdown: string | null;
  html: string | null;
  metadata: unknown;
};

const EXCERPT_CHARS = 200;
const httpStatus = z.object({ http_status: z.number().nullish() });

/** The checks of the run whose chunk `jobId` carries, and the chunk's rung; null for a job outside a run. */
export async function checksForJob(jobId: string): Promise<{ checks: Checks; rung: number } | null> {
  const chunk = await db().runChunk.findUnique({ where: { jobId }, select: { runId: true, rung: true } });
  if (!chunk) return null;
  const run = await db().run.findUnique({ where: { id: chunk.runId }, select: { checks: true } });
  if (!run) return null;
  return { checks: storedChecks(run.checks), rung: chunk.rung };
}

/** Judges one row on the judging pool: its verdict and, when not ok, the row without its body. */
export async function judgeRow<R extends Judgeable>(checks: Checks | null, row: R): Promise<R & JudgedFields> {
  if (!checks || row.status !== "completed") return { ...row, checkVerdict: null, checkName: null, checkExcerpt: null };
  const meta = httpStatus.safeParse(row.metadata);
  const status = meta.success ? (meta.data.http_status ?? null) : null;
  const judged = await judgeChecks(checks, { html: row.html, markdown: row.markdown, status });
  if (!judged.ok) {
    if (judged.failure === "failed") throw new Error(`judging a page failed: ${judged.message}`);
    return {
      ...row,
      markdown: null,
      html: null,
      checkVerdict: "suspect",
      checkName: judged.failure,
      checkExcerpt: excerpt(`judging ${judged.message}`),
    };
  }
  const r = judged.value;
  if (r.ok) return { ...row, checkVerdict: "ok", checkName: null, checkExcerpt: null };
  const verdict: Verdict = r.classification ? (r.classification.verdict as Verdict) : "suspect";
  return {
    ...row,
    markdown: null,
    html: null,
    checkVerdict: verdict === "ok" ? "suspect" : verdict,
    checkName: r.classification?.reason
      ? `${r.check}:${r.classification.reason.kind}:${r.classification.reason.signature}`.slice(0, 200)
      : r.check,
    checkExcerpt: excerpt(r.excerpt),
  };
}

const excerpt = (text: string) => text.replace(/[\u0000-\u001f\u007f]/g, " ").slice(0, EXCERPT_CHARS);

/** Judges a page of rows of `jobId` with the checks already looked up (checksForJob), all at once. */
export async function judgeRows<R extends Judgeable & { tokensCharged: number }>(
  run: { checks: Checks; rung: number } | null,
  rows: R[],
): Promise<(R & JudgedFields)[]> {
  const judged = await Promise.all(rows.map((r) => judgeRow(run?.checks ?? null, r)));
  if (run) for (const r of judged) countJudgedPage(r.checkVerdict, run.rung, r.tokensCharged);
  return judged;
}
