// The diff page's view of a diff (issue 49): a one-line change in a long page is that line with a few
// lines around it, the rest collapsed to counts; lines numbered in both versions; a changed line's
// words marked against the line it replaced.
import { describe, expect, it } from "vitest";
import { DIFF_CONTEXT, diffView, type DiffBlock } from "./diff-view";

const page = Array.from({ length: 20_000 }, (_, i) => `Line ${i}: the quick brown fox jumps, ${"x".repeat(30)}`);
const shownLines = (blocks: DiffBlock[]) => blocks.flatMap((b) => (b.kind === "change" ? b.lines : []));

describe("the diff view", () => {
  it("shows a one-line change in a 1 MB page as that line with its context, the rest collapsed, words marked", () => {
    const after = page.map((l, i) => (i === 12_345 ? l.replace("brown", "red") : l));
    const v = diffView(page.join("\n"), after.join("\n"));
    expect(v).toMatchObject({ cut: [], changes: 1, added: 1, removed: 1 });
    expect(v.blocks.map((b) => b.kind)).toEqual(["collapsed", "change", "collapsed"]);
    const [before, change, rest] = v.blocks;
    expect(before).toEqual({ kind: "collapsed", count: 12_345 - DIFF_CONTEXT, oldFrom: 1, newFrom: 1 });
    expect(rest).toMatchObject({ kind: "collapsed", count: 20_000 - 12_346 - DIFF_CONTEXT });
    const lines = shownLines([change]);
    expect(lines).toHaveLength(2 * DIFF_CONTEXT + 2);
    const removed = lines.find((l) => l.kind === "removed");
    const added = lines.find((l) => l.kind === "added");
    // Numbered as in each version (1-based): line 12,346 of both.
    expect([removed?.oldNo, removed?.newNo, added?.oldNo, added?.newNo]).toEqual([12_346, null, null, 12_346]);
    expect(lines[0]).toMatchObject({ kind: "same", oldNo: 12_346 - DIFF_CONTEXT, newNo: 12_346 - DIFF_CONTEXT });
    // Only the replaced word is marked, on each side; the parts put together are the line.
    expect(removed?.parts?.filter((p) => p.changed).map((p) => p.text)).toEqual(["brown"]);
    expect(added?.parts?.filter((p) => p.changed).map((p) => p.text)).toEqual(["red"]);
    expect(added?.parts?.map((p) => p.text).join("")).toBe(after[12_345]);
  });

  it("joins changes whose context touches, keeps far ones apart, and shows the whole page on asking", () => {
    const after = page.slice(0, 100).map((l, i) => (i === 10 || i === 14 || i === 60 ? `${l}!` : l));
    const v = diffView(page.slice(0, 100).join("\n"), after.join("\n"));
    expect(v.blocks.map((b) => b.kind)).toEqual(["collapsed", "change", "collapsed", "change", "collapsed"]);
    expect(v.changes).toBe(2);
    const all = diffView(page.slice(0, 100).join("\n"), after.join("\n"), Infinity);
    expect(all.blocks.map((b) => b.kind)).toEqual(["change"]);
    expect(shownLines(all.blocks)).toHaveLength(103);
  });

  it("does not mark the words of lines that share little, nor of lines past the word-diff bound", () => {
    const v = diffView("alpha beta gamma delta\nkeep", "alpha zeta theta kappa\nkeep");
    const lines = shownLines(v.blocks);
    expect(lines.filter((l) => l.parts !== undefined)).toEqual([]);
    const long = "word ".repeat(3000);
    const w = diffView(`${long}a`, `${long}b`);
    expect(shownLines(w.blocks).filter((l) => l.parts !== undefined)).toEqual([]);
  });

  it("identical versions: no change, one collapsed stretch", () => {
    const v = diffView("a\nb\nc", "a\nb\nc");
    expect(v).toEqual({
      cut: [],
      changes: 0,
      added: 0,
      removed: 0,
      blocks: [{ kind: "collapsed", count: 3, oldFrom: 1, newFrom: 1 }],
    });
  });
});
