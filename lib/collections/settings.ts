import "server-only";
import { BadRequest } from "../errors";
import type { Checks } from "../content-checks";
import { MAX_IGNORE_PATTERNS, patternProblem, type Rung } from "../runs";
import type { Overlap } from "./contracts";
import { nextTick, scheduleProblem, timezoneProblem } from "./schedule";

// A collection's settings checked as a whole before anything is written: a bad schedule, time zone or
// ignore pattern is a 400 that names it, and nothing changes.

export type CollectionSettings = {
  schedule: string | null;
  timezone: string;
  formats: ("markdown" | "html")[];
  renderJs: boolean;
  ignorePatterns: string[];
  overlap: Overlap;
  /** Issue 39: null where the run's defaults apply. */
  checks: Checks | null;
  escalation: Rung[] | null;
  maxTokens: number | null;
  monthlyMaxTokens: number | null;
  /** Issue 40: the bodies of its last N completed runs are kept (null: no limit). */
  keepBodiesRuns: number | null;
};

export function checkSettings(s: CollectionSettings): void {
  const tz = timezoneProblem(s.timezone);
  if (tz) throw new BadRequest(tz, { field: "timezone" });
  if (s.schedule !== null) {
    const problem = scheduleProblem(s.schedule, s.timezone);
    if (problem) throw new BadRequest(problem, { field: "schedule" });
  }
  if (s.ignorePatterns.length > MAX_IGNORE_PATTERNS)
    throw new BadRequest(`ignorePatterns holds ${s.ignorePatterns.length} patterns; at most ${MAX_IGNORE_PATTERNS}`, {
      field: "ignorePatterns",
    });
  s.ignorePatterns.forEach((p, i) => {
    const problem = patternProblem(p);
    if (problem) throw new BadRequest(`ignorePatterns[${i}] ${problem}`, { field: "ignorePatterns", index: i });
  });
}

/** The next tick from now, or null when there is no schedule or the collection is paused. */
export function nextRunOf(s: { schedule: string | null; timezone: string; paused: boolean }, now: Date): Date | null {
  if (s.schedule === null || s.paused) return null;
  return nextTick(s.schedule, s.timezone, now);
}
