import { createHash } from "node:crypto";
import { z } from "zod";

// A stored page's fingerprint for change tracking (issue 25): SHA-256 of its markdown (else its html)
// with the collection's ignorePatterns removed and whitespace collapsed, so a volatile timestamp or a
// re-indented page is not a change. Pure: used by the settle path and by the tests.

export const MAX_IGNORE_PATTERNS = 20;
export const MAX_PATTERN_LENGTH = 300;

const rulesSchema = z.array(z.string());

/** Why a pattern cannot be used, or null. Checked when a collection is saved. */
export function patternProblem(source: string): string | null {
  if (source.length === 0) return "is empty";
  if (source.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
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
