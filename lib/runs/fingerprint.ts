import { createHash } from "node:crypto";
import { RE2JS } from "re2js";
import { z } from "zod";

// A stored page's fingerprint for change tracking (issue 25): SHA-256 of its markdown (else its html)
// with the collection's ignorePatterns removed and whitespace collapsed, so a volatile timestamp or a
// re-indented page is not a change. Pure: used by the settle path and by the tests.
//
// Patterns run on RE2 (re2js): matching takes time linear in the page, whatever the pattern, so no
// pattern can backtrack ((a+)+$, \s*\s*x). RE2 has no backreferences and no lookaround; a pattern it
// refuses is refused when the collection is saved. The settle transaction runs them, so their work is
// bounded by size too: they see the first MAX_PATTERN_INPUT characters of a page and remove at most
// MAX_MATCHES_PER_PATTERN matches each (the rest of the page is hashed as it is).

export const MAX_IGNORE_PATTERNS = 20;
export const MAX_PATTERN_LENGTH = 300;
export const MAX_PATTERN_INPUT = 262_144;
export const MAX_MATCHES_PER_PATTERN = 1_000;

export type IgnoreRule = RE2JS;

const rulesSchema = z.array(z.string());

function compile(source: string): RE2JS | string {
  try {
    return RE2JS.compile(source);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Why a pattern cannot be used, or null. Checked when a collection is saved. */
export function patternProblem(source: string): string | null {
  if (source.length === 0) return "is empty";
  if (source.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
  const re = compile(source);
  if (typeof re === "string")
    return `is not RE2 syntax (${re}); backreferences and lookaround are not supported, see docs/collections.md`;
  // A pattern that matches the empty string would remove nothing and match at every position.
  if (re.test("")) return "matches the empty string";
  return null;
}

/** The run's stored rules (JSON list of pattern sources), compiled; bad entries are skipped. */
export function compileRules(json: string): IgnoreRule[] {
  let sources: string[] = [];
  try {
    sources = rulesSchema.parse(JSON.parse(json));
  } catch {
    return [];
  }
  return sources.filter((s) => patternProblem(s) === null).map((s) => RE2JS.compile(s));
}

function removeMatches(text: string, re: IgnoreRule): string {
  const m = re.matcher(text);
  let out = "";
  let last = 0;
  for (let n = 0; n < MAX_MATCHES_PER_PATTERN && m.find(); n++) {
    out += text.slice(last, m.start());
    last = m.end();
  }
  return last === 0 ? text : out + text.slice(last);
}

export function normalizeContent(content: string, patterns: readonly IgnoreRule[]): string {
  let head = content.slice(0, MAX_PATTERN_INPUT);
  for (const re of patterns) head = removeMatches(head, re);
  return (head + content.slice(MAX_PATTERN_INPUT)).replace(/\s+/g, " ").trim();
}

export function fingerprint(markdown: string | null, html: string | null, patterns: readonly IgnoreRule[]): string {
  return createHash("sha256")
    .update(normalizeContent(markdown ?? html ?? "", patterns))
    .digest("hex");
}
