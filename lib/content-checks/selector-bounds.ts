import { parse, SelectorType, type Selector } from "css-what";

// A user's CSS selector runs on pages written by strangers, and css-select (cheerio's engine) does not
// memoise: each sibling combinator (`~`, `+`) re-walks the previous siblings of every candidate, so
// `q~p~p~p~p~p` (11 characters) ran past 30 s on an 826-byte page and `h2~p` costs the square of a run
// of siblings. Selectors whose cost can grow as a power of the page are refused when they are saved;
// the judging pool's time budget (judge-pool.ts) stays the guard for what is left, such as `h2~p` on
// 40,000 siblings.

/** The most sibling combinators (`~`, `+`) in one selector. */
export const MAX_SIBLING_COMBINATORS = 2;
/** The most compound selectors (`div.a`, `p`, …) joined by combinators in one selector. */
export const MAX_COMPOUNDS = 6;
/** The most selectors in one comma-separated list. */
export const MAX_SELECTOR_LIST = 10;
/** Pseudo-classes that take selectors as their argument and evaluate them at every candidate. */
const SELECTOR_PSEUDOS = new Set(["has", "not", "is", "where", "matches", "any"]);

const COMBINATORS = new Set<string>([
  SelectorType.Adjacent,
  SelectorType.Child,
  SelectorType.Descendant,
  SelectorType.Parent,
  SelectorType.Sibling,
  SelectorType.ColumnCombinator,
]);
const SIBLINGS = new Set<string>([SelectorType.Adjacent, SelectorType.Sibling]);

function isSelectorList(data: unknown): data is Selector[][] {
  return Array.isArray(data) && data.every((s) => Array.isArray(s));
}

function problemOfOne(tokens: Selector[], inside: string | null): string | null {
  let compounds = 1;
  let siblings = 0;
  for (const t of tokens) {
    if (COMBINATORS.has(t.type)) {
      if (inside) return `:${inside}() holds a combinator; only simple selectors are allowed inside it`;
      compounds += 1;
      if (SIBLINGS.has(t.type)) siblings += 1;
      continue;
    }
    if (t.type === SelectorType.Pseudo && SELECTOR_PSEUDOS.has(t.name) && isSelectorList(t.data)) {
      for (const inner of t.data) {
        const p = problemOfOne(inner, inside ?? t.name);
        if (p) return p;
      }
    }
  }
  if (siblings > MAX_SIBLING_COMBINATORS)
    return `has ${siblings} sibling combinators (~ or +); at most ${MAX_SIBLING_COMBINATORS} are allowed, as each one multiplies the work on a page with many siblings`;
  if (compounds > MAX_COMPOUNDS) return `joins ${compounds} compound selectors; at most ${MAX_COMPOUNDS} are allowed`;
  return null;
}

/**
 * Why `selector` could cost a power of the page's size to evaluate, or null. Assumes the selector parses
 * (selectorProblem in page.ts says why it does not).
 */
export function selectorCostProblem(selector: string): string | null {
  let list: Selector[][];
  try {
    list = parse(selector);
  } catch {
    return null;
  }
  if (list.length > MAX_SELECTOR_LIST)
    return `lists ${list.length} selectors; at most ${MAX_SELECTOR_LIST} are allowed in one entry`;
  for (const one of list) {
    const p = problemOfOne(one, null);
    if (p) return p;
  }
  return null;
}
