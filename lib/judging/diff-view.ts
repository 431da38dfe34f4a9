import { diffWordsWithSpace } from "diff";
import { boundedLineDiff, type DiffCut, type DiffLine } from "./line-diff";

// What the diff page shows (issue 49): the bounded line diff cut into changes with a few lines of
// context around each, the unchanged stretches between them collapsed to a count (as code review tools
// do), each line numbered in both versions, and a changed line's words marked against the line it
// replaced. Computed on the judging pool with the diff itself: only the shown lines cross back, so a
// one-line change in a 1 MB page is a few lines, not the page.

/** Lines of unchanged context kept before and after each change. */
export const DIFF_CONTEXT = 3;
/** A replaced line's words are compared only when both lines are at most this long. */
export const MAX_WORD_DIFF_CHARS = 10_000;
/** At most this many replaced lines per diff get word marks (each costs a diff of its own). */
export const MAX_WORD_DIFF_PAIRS = 500;

/** A part of a line; `changed` marks the words that are not in the line it is compared with. */
export type WordPart = { text: string; changed: boolean };
export type ViewLine = DiffLine & {
  /** Its number in the old version (null for an added line) and in the new one (null for a removed line). */
  oldNo: number | null;
  newNo: number | null;
  /** Word marks, when the line replaced another (or was replaced) and the two share a third or more of it. */
  parts?: WordPart[];
};
export type DiffBlock =
  | { kind: "change"; lines: ViewLine[] }
  /** `count` unchanged lines not shown, from line `oldFrom` of the old version and `newFrom` of the new. */
  | { kind: "collapsed"; count: number; oldFrom: number; newFrom: number };
export type DiffView = {
  cut: DiffCut[];
  blocks: DiffBlock[];
  /** How many changes (blocks of kind "change") there are. */
  changes: number;
  added: number;
  removed: number;
};

function numbered(lines: DiffLine[]): ViewLine[] {
  let oldNo = 0;
  let newNo = 0;
  return lines.map((l) => ({
    ...l,
    oldNo: l.kind === "added" ? null : ++oldNo,
    newNo: l.kind === "removed" ? null : ++newNo,
  }));
}

/** Marks the words of each removed line that a following added line replaced, and the other way round. */
function markWords(lines: ViewLine[], budget: { pairs: number }): void {
  let i = 0;
  while (i < lines.length) {
    if (lines[i].kind !== "removed") {
      i++;
      continue;
    }
    const start = i;
    while (i < lines.length && lines[i].kind === "removed") i++;
    const removedEnd = i;
    while (i < lines.length && lines[i].kind === "added") i++;
    const pairs = Math.min(removedEnd - start, i - removedEnd);
    for (let k = 0; k < pairs && budget.pairs > 0; k++) {
      const old = lines[start + k];
      const now = lines[removedEnd + k];
      if (old.text.length > MAX_WORD_DIFF_CHARS || now.text.length > MAX_WORD_DIFF_CHARS) continue;
      budget.pairs--;
      const parts = diffWordsWithSpace(old.text, now.text);
      // Lines with little in common (under a third of their words' characters) read better whole than
      // as a line of marks.
      const kept = parts.reduce((n, p) => (p.added || p.removed ? n : n + p.value.replace(/\s/g, "").length), 0);
      const longest = Math.max(old.text.replace(/\s/g, "").length, now.text.replace(/\s/g, "").length);
      if (kept === 0 || kept < longest / 3) continue;
      old.parts = parts.filter((p) => !p.added).map((p) => ({ text: p.value, changed: p.removed }));
      now.parts = parts.filter((p) => !p.removed).map((p) => ({ text: p.value, changed: p.added }));
    }
  }
}

/**
 * The diff of two versions as the page shows it: changes with `context` lines around each (Infinity:
 * the whole page as one block), unchanged stretches between them collapsed.
 */
export function diffView(before: string, after: string, context = DIFF_CONTEXT): DiffView {
  const { lines: raw, cut } = boundedLineDiff(before, after);
  const lines = numbered(raw);
  const changed = lines.flatMap((l, i) => (l.kind === "same" ? [] : [i]));
  const added = lines.filter((l) => l.kind === "added").length;
  const removed = lines.length - added - lines.filter((l) => l.kind === "same").length;
  const blocks: DiffBlock[] = [];
  const collapse = (from: number, to: number) => {
    if (to > from)
      blocks.push({
        kind: "collapsed",
        count: to - from,
        oldFrom: lines[from].oldNo ?? 0,
        newFrom: lines[from].newNo ?? 0,
      });
  };
  // Each change with its context; changes whose context touches are one block.
  let shownTo = 0;
  let k = 0;
  while (k < changed.length) {
    const from = Math.max(shownTo, changed[k] - context);
    let to = Math.min(lines.length, changed[k] + 1 + context);
    k++;
    while (k < changed.length && changed[k] - context <= to) {
      to = Math.min(lines.length, changed[k] + 1 + context);
      k++;
    }
    collapse(shownTo, from);
    blocks.push({ kind: "change", lines: lines.slice(from, to) });
    shownTo = to;
  }
  collapse(shownTo, lines.length);
  const budget = { pairs: MAX_WORD_DIFF_PAIRS };
  for (const b of blocks) if (b.kind === "change") markWords(b.lines, budget);
  return { cut, blocks, changes: blocks.filter((b) => b.kind === "change").length, added, removed };
}
