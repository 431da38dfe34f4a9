// Ignore patterns (lib/runs/fingerprint.ts): the ones a collection may save, and the nested repeats
// refused because they backtrack exponentially on a page that nearly matches.
import { describe, expect, it } from "vitest";
import { compileRules, fingerprint, patternProblem } from "./fingerprint";

describe("ignore patterns", () => {
  it("takes ordinary patterns, and fingerprints without what they match", () => {
    for (const ok of [
      "Fetched at \\S+",
      "\\d{4}-\\d{2}-\\d{2}",
      "(price|cost): \\$\\d+",
      "(ab)?c+",
      "[(+*)]+",
      "\\(a+\\)+",
    ])
      expect(patternProblem(ok), ok).toBeNull();
    const rules = compileRules(JSON.stringify(["Fetched at \\S+"]));
    expect(fingerprint("# A\n\nFetched at 2026-12-02T10:00:00Z", null, rules)).toBe(
      fingerprint("# A   Fetched at 2026-12-03T11:11:11Z", null, rules),
    );
  });

  it("refuses a repeated group that itself repeats, an empty match and a bad expression", () => {
    for (const bad of ["(a+)+", "(\\w*x)*", "(a|b+){2,}", "((ab)*c)+", "(?:\\d+\\.)*\\d+!(x+)*"])
      expect(patternProblem(bad), bad).toMatch(/repeats a group that itself repeats/);
    expect(patternProblem("x*")).toBe("matches the empty string");
    expect(patternProblem("(unclosed")).toMatch(/not a valid regular expression/);
    // A refused pattern in a stored run's rules is skipped, not compiled.
    expect(compileRules(JSON.stringify(["(a+)+", "b"]))).toHaveLength(1);
  });
});
