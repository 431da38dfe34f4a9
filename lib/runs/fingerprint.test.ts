// Ignore patterns (lib/runs/fingerprint.ts) run on RE2: the patterns a collection may save, the ones
// RE2 refuses (backreferences, lookaround), hostile pattern-and-page pairs that backtrack for minutes
// in JavaScript's engine finishing at once (this file's time-out bounds them), and the size bounds.
import { describe, expect, it } from "vitest";
import {
  compileRules,
  fingerprint,
  MAX_MATCHES_PER_PATTERN,
  MAX_PATTERN_INPUT,
  normalizeContent,
  patternProblem,
} from "./fingerprint";

describe("ignore patterns", () => {
  it("takes ordinary patterns, and fingerprints without what they match", () => {
    for (const ok of [
      "Fetched at \\S+",
      "\\d{4}-\\d{2}-\\d{2}",
      "(price|cost): \\$\\d+",
      "(ab)?c+",
      "[(+*)]+",
      "\\(a+\\)+",
      "(?i)updated",
      "(?<stamp>\\d+) ms",
      "\\bid=\\w+",
    ])
      expect(patternProblem(ok), ok).toBeNull();
    const rules = compileRules(JSON.stringify(["Fetched at \\S+"]));
    expect(fingerprint("# A\n\nFetched at 2026-12-02T10:00:00Z", null, rules)).toBe(
      fingerprint("# A   Fetched at 2026-12-03T11:11:11Z", null, rules),
    );
    expect(normalizeContent("Updated 3 min ago. UPDATED", compileRules(JSON.stringify(["(?i)updated"])))).toBe(
      "3 min ago.",
    );
  });

  it("refuses what RE2 does not run (backreferences, lookaround), an empty match and a bad expression", () => {
    for (const bad of ["(a)\\1", "(?=x)y", "x(?!y)", "(?<=x)y", "(?<!x)y", "\\u00a0"])
      expect(patternProblem(bad), bad).toMatch(/^is not RE2 syntax \(.+\); backreferences and lookaround/);
    expect(patternProblem("x*")).toBe("matches the empty string");
    expect(patternProblem("(unclosed")).toMatch(/^is not RE2 syntax \(error parsing regexp: missing closing \)/);
    expect(patternProblem("")).toBe("is empty");
    expect(patternProblem("a".repeat(301))).toBe("is longer than 300 characters");
    // A refused pattern in a stored run's rules is skipped, not compiled.
    expect(compileRules(JSON.stringify(["(a)\\1", "b"]))).toHaveLength(1);
  });

  it("runs the patterns that backtrack in JavaScript in linear time: nested and polynomial repeats", () => {
    // JavaScript's engine takes minutes on each of these (28 a's for the first); RE2 does not backtrack.
    const nested = compileRules(JSON.stringify(["(a+)+$"]));
    expect(nested).toHaveLength(1);
    const nearMiss = "a".repeat(100_000) + "!";
    expect(normalizeContent(nearMiss, nested)).toBe(nearMiss);
    expect(normalizeContent("b aaaa", nested)).toBe("b");
    const polynomial = compileRules(JSON.stringify(["\\s*\\s*x", "\\s*Updated"]));
    expect(polynomial).toHaveLength(2);
    const spaces = " ".repeat(60_000);
    expect(normalizeContent(`${spaces}page${spaces}x${spaces}Updated`, polynomial)).toBe("page");
    const wordy = compileRules(JSON.stringify(["(\\w*z)*y"]));
    const page = `${"wz".repeat(50_000)}!`;
    expect(normalizeContent(page, wordy) === page).toBe(true);
  });

  it("bounds the work on a page: the first MAX_PATTERN_INPUT characters, MAX_MATCHES_PER_PATTERN matches", () => {
    const stamp = compileRules(JSON.stringify(["T\\d+"]));
    const many = "T1 ".repeat(MAX_MATCHES_PER_PATTERN + 5);
    expect(normalizeContent(many, stamp)).toBe("T1 ".repeat(5).trim());
    const far = normalizeContent(`T2 ${"p".repeat(MAX_PATTERN_INPUT)} T1 end`, stamp);
    // T2 is in the part the patterns see, T1 beyond it: hashed as it is.
    expect(far.length).toBe(MAX_PATTERN_INPUT + " T1 end".length);
    expect(far.endsWith("p T1 end") && !far.includes("T2")).toBe(true);
  });
});
