import "server-only";
import { diffArrays } from "diff";

// A hostile page can make a line diff cost the square of its lines (Myers' algorithm on many short
// lines that all differ). So the diff is bounded, and says so: it compares at most MAX_DIFF_CHARS
// characters of each version (a whole page as Tally parses it). The common start and end are matched
// first, in linear time, so a small change in a large page is aligned exactly; of the part that
// differs, at most MAX_DIFF_LINES lines of each version are aligned, with at most MAX_DIFF_EDITS added
// and removed lines; past that the differing part is shown whole, old lines then new ones.
export const MAX_DIFF_CHARS = 3_000_000;
export const MAX_DIFF_LINES = 20_000;
export const MAX_DIFF_EDITS = 1_000;

export type DiffLine = { kind: "same" | "added" | "removed"; text: string };
/** Why a diff is not the whole exact diff: a version too long, a differing part of too many lines, too
 *  many edits to align, or the judging pool stopped it (its time or memory limit) before it had an answer. */
export type DiffCut = "chars" | "lines" | "edits" | "stopped";

function linesOf(text: string): string[] {
  return text === "" ? [] : text.replace(/\n$/, "").split("\n");
}

/** A bounded line diff of two texts; `cut` says what was left out or not aligned. */
export function boundedLineDiff(before: string, after: string): { lines: DiffLine[]; cut: DiffCut[] } {
  const cut: DiffCut[] = [];
  if (before.length > MAX_DIFF_CHARS || after.length > MAX_DIFF_CHARS) cut.push("chars");
  const a = linesOf(before.slice(0, MAX_DIFF_CHARS));
  const b = linesOf(after.slice(0, MAX_DIFF_CHARS));
  // The common start and end need no search; only the middle is aligned.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const same = (xs: string[]) => xs.map((text): DiffLine => ({ kind: "same", text }));
  let midA = a.slice(head, a.length - tail);
  let midB = b.slice(head, b.length - tail);
  if (midA.length > MAX_DIFF_LINES || midB.length > MAX_DIFF_LINES) {
    // What follows the compared part is left out: aligned against a cut middle, it would mislead.
    cut.push("lines");
    midA = midA.slice(0, MAX_DIFF_LINES);
    midB = midB.slice(0, MAX_DIFF_LINES);
    tail = 0;
  }
  const lines: DiffLine[] = same(a.slice(0, head));
  const parts = diffArrays(midA, midB, { maxEditLength: MAX_DIFF_EDITS });
  if (parts === undefined) {
    cut.push("edits");
    for (const text of midA) lines.push({ kind: "removed", text });
    for (const text of midB) lines.push({ kind: "added", text });
  } else {
    for (const p of parts) {
      const kind = p.added ? "added" : p.removed ? "removed" : "same";
      for (const text of p.value) lines.push({ kind, text });
    }
  }
  if (tail > 0) lines.push(...same(a.slice(a.length - tail)));
  return { lines, cut };
}
