import type { CheckResult, Checks } from "../content-checks";
import type { DiffView } from "./diff-view";

// What the judging pool's threads do (issue 47): every piece of work whose cost a stranger's page
// decides. Tasks and answers are plain data: they cross to a worker thread by structured clone.

export type JudgeTask =
  /** A page's content checks and block-page detector (lib/content-checks runChecks). */
  | {
      kind: "checks";
      checks: Checks;
      html: string | null;
      markdown: string | null;
      status: number | null;
    }
  /** A page's change-tracking fingerprint under a collection's ignore patterns (their sources). */
  | { kind: "fingerprint"; markdown: string | null; html: string | null; patterns: string[] }
  /** The diff page's bounded line diff of two versions, as changes with `context` lines around each. */
  | { kind: "diff"; before: string; after: string; context: number };

export type TaskAnswer<T extends JudgeTask> = T extends { kind: "checks" }
  ? CheckResult
  : T extends { kind: "fingerprint" }
    ? string
    : T extends { kind: "diff" }
      ? DiffView
      : never;

/** Why a task gave no answer: it ran past its time budget, past its memory, or its code threw. */
export type JudgeFailure = "budget_exceeded" | "memory_exceeded" | "failed";

export type Judged<A> =
  { ok: true; value: A; ms: number } | { ok: false; failure: JudgeFailure; ms: number; message: string };
