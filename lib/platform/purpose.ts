import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import type { CallRank } from "./rate-limit";

// Why a platform call was made, for the API budget view. Set once around a unit of work
// (`withPurpose("reconcile", run)`) and read by the transport for every call made inside it, so no
// call site has to thread a label through; a nested purpose wins (a drift check inside a reconciliation).

export const CALL_PURPOSES = [
  "submit",
  "worker refetch",
  "result pages",
  "poll",
  "poll sweep",
  "reconcile",
  "replay",
  "register",
  "rotate",
  "drift check",
  "other",
] as const;
export type CallPurpose = (typeof CALL_PURPOSES)[number];

/**
 * Calls that fetch the results of jobs already settled on the platform go before everything else in
 * the rate budget (shared-budget.ts): drain before fill. When submits alone could fill the budget,
 * the team's new jobs wait a little longer, not the results of the finished ones (settled → stored).
 * Work for a backlog (asBacklog) goes after everything else, whatever its purpose: while 30,000 jobs
 * found by reconciliation drain, a submit still answers at once and today's results come first.
 */
const URGENT: ReadonlySet<CallPurpose> = new Set(["worker refetch", "result pages"]);

const backlog = new AsyncLocalStorage<true>();

/** Runs `fn` as backlog work: its calls rank "backlog" in the rate budget (their purpose is kept for the accounting). */
export function asBacklog<T>(fn: () => T): T {
  return backlog.run(true, fn);
}

/** The rank of a call in the rate budget's queue of waiting callers. */
export function callRank(purpose: CallPurpose): CallRank {
  if (backlog.getStore()) return "backlog";
  return URGENT.has(purpose) ? "urgent" : "normal";
}

/** How the platform answered: by status class, with 429 apart; no answer is a timeout or a network error. */
export const ANSWER_CLASSES = ["2xx", "4xx", "429", "5xx", "timeout", "network", "other"] as const;
export type AnswerClass = (typeof ANSWER_CLASSES)[number];

const store = new AsyncLocalStorage<CallPurpose>();

export function withPurpose<T>(purpose: CallPurpose, fn: () => T): T {
  return store.run(purpose, fn);
}

export function currentPurpose(): CallPurpose {
  return store.getStore() ?? "other";
}

export function answerClass(status: number | null, timedOut: boolean): AnswerClass {
  if (status === null) return timedOut ? "timeout" : "network";
  if (status === 429) return "429";
  if (status >= 200 && status < 300) return "2xx";
  if (status >= 400 && status < 500) return "4xx";
  if (status >= 500) return "5xx";
  return "other";
}
