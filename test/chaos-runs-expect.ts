// What every runs-mode chaos test in the suite requires of its run (test/chaos-runs.test.ts on SQLite,
// test/postgres-chaos-runs.test.ts on PostgreSQL): completed, every URL final and counted once, reads
// that add up, tokens charged and matching the platform's, and a verdict that holds in every part.
import { expect } from "vitest";
import type { RunFacts, RunVerdict } from "../scripts/chaos/runs";

export function expectRunsChaosHeld(facts: RunFacts, verdict: RunVerdict, urls: number, minStored: number) {
  expect(facts.state).toBe("completed");
  expect(facts.counters.stored + facts.counters.failed).toBe(urls);
  expect(facts.counters.stored).toBeGreaterThan(minStored);
  expect(facts.readsNotAddingUp).toBe(0);
  // Tokens were charged (a run that charged nothing would match trivially).
  expect(facts.platformTokens).toBeGreaterThanOrEqual(facts.counters.stored);
  expect(verdict).toMatchObject({
    allFinal: true,
    countersAddUp: true,
    countersMatchRows: true,
    storedTwice: 0,
    duplicatesReported: true,
    tokensMatch: true,
    ok: true,
  });
}
