import { createHash } from "node:crypto";
import { z } from "zod";

// A stored page's fingerprint for change tracking (issue 25): SHA-256 of its markdown (else its html)
// with the collection's ignorePatterns removed and whitespace collapsed, so a volatile timestamp or a
// re-indented page is not a change. Pure: used by the settle path and by the tests.

export const MAX_IGNORE_PATTERNS = 20;
export const MAX_PATTERN_LENGTH = 300;

const rulesSchema = z.array(z.string());

/**
 * Whether a group that holds a repeat is itself repeated (`(a+)+`, `(\\w*x)*`, `(a|b+){2,}`): the shape
 * that backtracks exponentially on a near-match. A cheap structural check, not a proof: it also refuses
 * some harmless patterns, which can be written without the nesting.
 */
function hasNestedQuantifier(source: string): boolean {
  const groups: boolean[] = []; // per open group: does it contain a quantifier?
  let inClass = false;
  let lastClosedHadQuantifier = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") {
      i++;
      lastClosedHadQuantifier = false;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    const quantifier = ch === "*" || ch === "+" || (ch === "{" && /^\{\d+(,\d*)?\}/.test(source.slice(i)));
    if (quantifier) {
      if (lastClosedHadQuantifier) return true;
      if (groups.length > 0) groups[groups.length - 1] = true;
      lastClosedHadQuantifier = false;
      continue;
    }
    if (ch === "[") inClass = true;
    if (ch === "(") groups.push(false);
    if (ch === ")") {
      const had = groups.pop() ?? false;
      if (had && groups.length > 0) groups[groups.length - 1] = true;
      lastClosedHadQuantifier = had;
      continue;
    }
    lastClosedHadQuantifier = false;
  }
  return false;
}

/** Why a pattern cannot be used, or null. Checked when a collection is saved. */
export function patternProblem(source: string): string | null {
  if (source.length === 0) return "is empty";
  if (source.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
  if (hasNestedQuantifier(source))
    return "repeats a group that itself repeats (like (a+)+), which can take exponential time on a page; write it without the nesting";
  try {
    const re = new RegExp(source, "g");
    // A pattern that matches the empty string would remove nothing and loop on every position.
    if (re.test("")) return "matches the empty string";
  } catch (err) {
    return `is not a valid regular expression (${err instanceof Error ? err.message : String(err)})`;
  }
  return null;
}

/** The run's stored rules (JSON list of pattern sources) as regular expressions; bad entries are skipped. */
export function compileRules(json: string): RegExp[] {
  let sources: string[] = [];
  try {
    sources = rulesSchema.parse(JSON.parse(json));
  } catch {
    return [];
  }
  return sources.filter((s) => patternProblem(s) === null).map((s) => new RegExp(s, "g"));
}

export function normalizeContent(content: string, patterns: readonly RegExp[]): string {
  let s = content;
  for (const re of patterns) s = s.replace(re, "");
  return s.replace(/\s+/g, " ").trim();
}

export function fingerprint(markdown: string | null, html: string | null, patterns: readonly RegExp[]): string {
  return createHash("sha256")
    .update(normalizeContent(markdown ?? html ?? "", patterns))
    .digest("hex");
}
