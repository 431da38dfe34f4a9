// The runs chaos mode's verdict: a run passes only when every URL is final, its counters add up (at the
// end and at every read while it moved) and match its URL rows, no URL is stored twice, and every
// submission the platform got twice is reported in duplicateSubmits (no more, no fewer), and the tokens the
// platform charged for the run's jobs and for its duplicates equal Tally's.
import { describe, expect, it } from "vitest";
import { runVerdict, type RunFacts } from "./runs";

const good: RunFacts = {
  total: 100,
  state: "completed",
  counters: { pending: 0, submitted: 0, stored: 97, retrying: 0, failed: 3 },
  rows: { stored: 97, failed: 3 },
  storedWithoutResult: 0,
  resultsSharedByUrls: 0,
  duplicateSubmits: 0,
  platformBatchJobs: 3,
  platformResubmissions: 1,
  chunksPosted: 2,
  unlinkedPlatformJobs: 0,
  platformTokens: 97,
  platformDuplicateTokens: 0,
  tallyTokens: 97,
  tallyDuplicateTokens: 0,
  chunksLookedFor: 1,
  chunksAdopted: 1,
  failedByReason: { TARGET_NOT_FOUND: 3 },
  reads: 40,
  readsNotAddingUp: 0,
};

describe("runVerdict", () => {
  it("passes a completed run whose counts, rows and platform jobs all agree", () => {
    expect(runVerdict(good)).toMatchObject({ ok: true, storedTwice: 0, extraSubmissions: 0 });
  });

  it("fails a run with a URL not final, or counters that disagree with the rows", () => {
    const notFinal = { ...good, state: "active", counters: { ...good.counters, stored: 96, submitted: 1 } };
    expect(runVerdict(notFinal)).toMatchObject({ ok: false, allFinal: false });
    expect(runVerdict({ ...good, rows: { stored: 96, failed: 3, submitted: 1 } })).toMatchObject({
      ok: false,
      countersMatchRows: false,
    });
  });

  it("fails when one read while the run moved did not add up, even if the end does", () => {
    expect(runVerdict({ ...good, readsNotAddingUp: 1 })).toMatchObject({ ok: false, countersAddUp: false });
  });

  it("counts a URL without its result row, or two URLs on one result, as stored twice", () => {
    expect(runVerdict({ ...good, storedWithoutResult: 1 })).toMatchObject({ ok: false, storedTwice: 1 });
    expect(runVerdict({ ...good, resultsSharedByUrls: 2 })).toMatchObject({ ok: false, storedTwice: 2 });
  });

  it("the platform's duplicate submissions and Tally's duplicateSubmits must be equal, either way", () => {
    const twice = { ...good, platformBatchJobs: 4, unlinkedPlatformJobs: 1, platformDuplicateTokens: 97 };
    const counted = { ...twice, duplicateSubmits: 1, tallyDuplicateTokens: 97 };
    expect(runVerdict(twice)).toMatchObject({ ok: false, extraSubmissions: 1, duplicatesReported: false });
    expect(runVerdict(counted)).toMatchObject({ ok: true, duplicatesReported: true, tokensMatch: true });
    // Counted, but the platform never ran a second copy.
    expect(runVerdict({ ...good, duplicateSubmits: 1 })).toMatchObject({ ok: false, duplicatesReported: false });
  });

  it("fails when Tally's tokens differ from the platform's, for the chunks' jobs or for the duplicates", () => {
    expect(runVerdict({ ...good, tallyTokens: 96 })).toMatchObject({ ok: false, tokensMatch: false });
    expect(runVerdict({ ...good, platformTokens: 98 })).toMatchObject({ ok: false, tokensMatch: false });
    const copy = { ...good, platformBatchJobs: 4, unlinkedPlatformJobs: 1, duplicateSubmits: 1 };
    expect(runVerdict({ ...copy, platformDuplicateTokens: 97, tallyDuplicateTokens: 0 })).toMatchObject({
      ok: false,
      duplicatesReported: true,
      tokensMatch: false,
    });
  });
});
