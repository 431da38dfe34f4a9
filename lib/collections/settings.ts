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

/** One problem with a collection's settings, by the field it belongs to (as the form marks it). */
export type SettingsProblem = { path: string; message: string };

/**
 * Every problem of the settings at once (a bad cron is not hidden behind a bad zone), each by its field:
 * `timezone`, `schedule`, `ignorePatterns` or `ignorePatterns.<n>`.
 */
export function settingsProblems(s: CollectionSettings): SettingsProblem[] {
  const out: SettingsProblem[] = [];
  const tz = timezoneProblem(s.timezone);
  if (tz) out.push({ path: "timezone", message: tz });
  if (s.schedule !== null) {
    // Read in UTC when the zone itself is bad, so the cron's own problem still shows.
    const problem = scheduleProblem(s.schedule, tz ? "UTC" : s.timezone);
    if (problem) out.push({ path: "schedule", message: problem });
  }
  if (s.ignorePatterns.length > MAX_IGNORE_PATTERNS)
    out.push({
      path: "ignorePatterns",
      message: `ignorePatterns holds ${s.ignorePatterns.length} patterns; at most ${MAX_IGNORE_PATTERNS}`,
    });
  else
    s.ignorePatterns.forEach((p, i) => {
      const problem = patternProblem(p);
      if (problem) out.push({ path: `ignorePatterns.${i}`, message: `ignorePatterns[${i}] ${problem}` });
    });
  return out;
}

/** A 400 holding every problem (the message names them all, `details` lists them by field), or nothing. */
export function refuseProblems(problems: SettingsProblem[]): void {
  if (problems.length === 0) return;
  throw new BadRequest(problems.map((p) => p.message).join("; "), problems);
}

/** The next tick from now, or null when there is no schedule or the collection is paused. */
export function nextRunOf(s: { schedule: string | null; timezone: string; paused: boolean }, now: Date): Date | null {
  if (s.schedule === null || s.paused) return null;
  return nextTick(s.schedule, s.timezone, now);
}
