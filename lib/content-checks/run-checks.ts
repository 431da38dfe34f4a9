import { classifyPage, excerptOf, type Classification } from "./classify";
import { parsePage, type Page, type PageInput } from "./page";
import type { Checks, Matcher } from "./schema";

// Runs a checks definition on one stored page (issue 39). The checks run in a fixed order and the first
// that fails is the answer: detectBlocks, minTextLength, mustContain[i], mustNotContain[i]. A phrase is
// looked for in the visible text (case-insensitive, whitespace collapsed; in the markdown when the page
// has no html); a selector is evaluated on the parsed html by the HTML parser. Excerpts are plain text,
// at most 200 characters, never markup.

export type CheckResult =
  | { ok: true; partial: boolean }
  | {
      ok: false;
      /** The failed check: `detectBlocks`, `minTextLength`, `mustContain[0]`, `mustNotContain[2]`, … */
      check: string;
      excerpt: string;
      partial: boolean;
      /** The detector's answer, when detectBlocks failed. */
      classification?: Classification;
    };

const fold = (s: string) => s.toLowerCase().replace(/[\u2018\u2019]/g, "'");
const foldPhrase = (s: string) => fold(s.replace(/\s+/g, " ").trim());

type Found = { found: true; excerpt: string } | { found: false; reason?: string };

function look(page: Page, m: Matcher, foldedText: string): Found {
  if (m.text !== undefined) {
    const at = foldedText.indexOf(foldPhrase(m.text));
    return at >= 0 ? { found: true, excerpt: excerptOf(page.text, at) } : { found: false };
  }
  if (!page.$) return { found: false, reason: "the page has no html to evaluate a selector on" };
  const hits = page.$.root().find(m.selector);
  if (hits.length === 0) return { found: false };
  const text = hits.first().text().replace(/\s+/g, " ").trim();
  const tag = hits.first().prop("tagName")?.toLowerCase() ?? "element";
  const what = `${hits.length} ${hits.length === 1 ? "element matches" : "elements match"}; the first (${tag})`;
  return { found: true, excerpt: excerptOf(text ? `${what} reads: ${text}` : `${what} has no text`) };
}

const startOf = (page: Page) => (page.text === "" ? "(no visible text)" : excerptOf(page.text));

/** Runs `checks` on `input` (or on a page already parsed). */
export function runChecks(checks: Checks, input: PageInput | Page): CheckResult {
  const page = "mainText" in input ? input : parsePage(input);
  const partial = page.partial;
  const fail = (check: string, excerpt: string, classification?: Classification): CheckResult => ({
    ok: false,
    check,
    excerpt,
    partial,
    ...(classification ? { classification } : {}),
  });

  if (checks.detectBlocks) {
    const c = classifyPage(page);
    if (c.verdict !== "ok") return fail("detectBlocks", c.reason?.excerpt ?? startOf(page), c);
  }
  if (page.text.length < checks.minTextLength)
    return fail("minTextLength", `${page.text.length} characters of text: ${startOf(page)}`.slice(0, 200));

  const foldedText = fold(page.text);
  for (const [i, m] of checks.mustContain.entries()) {
    const r = look(page, m, foldedText);
    if (!r.found) return fail(`mustContain[${i}]`, r.reason ?? startOf(page));
  }
  for (const [i, m] of checks.mustNotContain.entries()) {
    const r = look(page, m, foldedText);
    if (r.found) return fail(`mustNotContain[${i}]`, r.excerpt);
  }
  return { ok: true, partial };
}
