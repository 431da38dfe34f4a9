// The soak's lines: a seed is ok only when its verdict is, a failed seed names the checks that failed,
// and the total counts the failed seeds by number.
import { describe, expect, it } from "vitest";
import { runVerdict, type RunFacts } from "./runs";
import { formatSoakRow, formatSoakTotal, soakRow } from "./soak";

const facts: RunFacts = {
  total: 100,
  state: "completed",
  counters: { pending: 0, submitted: 0, stored: 97, retrying: 0, failed: 3 },
  rows: { stored: 97, failed: 3 },
  storedWithoutResult: 0,
  resultsSharedByUrls: 0,
  duplicateSubmits: 1,
  platformBatchJobs: 4,
  platformResubmissions: 1,
  chunksPosted: 2,
  unlinkedPlatformJobs: 1,
  platformTokens: 97,
  platformDuplicateTokens: 50,
  tallyTokens: 97,
  tallyDuplicateTokens: 50,
  chunksLookedFor: 1,
  chunksAdopted: 0,
  failedByReason: {},
  reads: 10,
  readsNotAddingUp: 0,
};

describe("soak lines", () => {
  it("a seed whose verdict passes is ok, with the duplicates and the tokens of both sides", () => {
    const row = soakRow(7, 42, facts, runVerdict(facts));
    expect(row).toMatchObject({
      ok: true,
      duplicates: 1,
      platformDuplicates: 1,
      platformTokens: 147,
      tallyTokens: 147,
    });
    expect(formatSoakRow(row)).toBe(
      "seed      7  ok    stored 97 failed 3  duplicates 1 (platform 1)  tokens platform 147 Tally 147  42 s",
    );
  });

  it("a failed seed names what failed, and the total names the failed seeds", () => {
    const bad = { ...facts, tallyDuplicateTokens: 0, resultsSharedByUrls: 1 };
    const row = soakRow(8, 40, bad, runVerdict(bad));
    expect(row.ok).toBe(false);
    expect(formatSoakRow(row)).toMatch(/FAIL .* tokensMatch, storedTwice 1$/);
    const total = formatSoakTotal([soakRow(7, 42, facts, runVerdict(facts)), row]);
    expect(total).toBe(
      "total: 1 of 2 seeds ok (FAILED: 8), stored 194 failed 6, duplicates 2 (platform 2), tokens platform 294 Tally 244, 82 s",
    );
  });
});
