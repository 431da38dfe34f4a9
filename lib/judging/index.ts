// The judging pool (issue 47): work whose cost a stranger's page decides runs on worker threads within
// a time budget. The threads' code (run-task.ts, worker.ts) is bundled apart (scripts/judge-worker.mjs)
// and is not part of this surface: callers hand over plain data and get plain data back.
import type { CheckResult, Checks } from "../content-checks";
import { DIFF_CONTEXT, type DiffView } from "./diff-view";
import { judgePool } from "./pool";
import type { Judged } from "./tasks";

export { closeJudgePool, judgePool, type PoolStats } from "./pool";
export {
  boundedLineDiff,
  MAX_DIFF_CHARS,
  MAX_DIFF_EDITS,
  MAX_DIFF_LINES,
  type DiffCut,
  type DiffLine,
} from "./line-diff";
export {
  diffView,
  DIFF_CONTEXT,
  MAX_WORD_DIFF_CHARS,
  type DiffBlock,
  type DiffView,
  type ViewLine,
  type WordPart,
} from "./diff-view";
export type { JudgeFailure, Judged, JudgeTask } from "./tasks";

/** A page's content checks and block-page detector, judged on a pool thread. */
export function judgeChecks(
  checks: Checks,
  page: { html: string | null; markdown: string | null; status: number | null },
): Promise<Judged<CheckResult>> {
  return judgePool().run({ kind: "checks", checks, ...page }) as Promise<Judged<CheckResult>>;
}

/** A page's change-tracking fingerprint under ignore patterns (their sources), on a pool thread. */
export function judgeFingerprint(
  markdown: string | null,
  html: string | null,
  patterns: string[],
): Promise<Judged<string>> {
  return judgePool().run({ kind: "fingerprint", markdown, html, patterns }) as Promise<Judged<string>>;
}

/** A bounded line diff of two versions as changes with `context` lines around each, on a pool thread. */
export function judgeDiff(before: string, after: string, context = DIFF_CONTEXT): Promise<Judged<DiffView>> {
  return judgePool().run({ kind: "diff", before, after, context }) as Promise<Judged<DiffView>>;
}
