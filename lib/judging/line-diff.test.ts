// The diff page's line diff (lib/judging/line-diff.ts) is bounded, and says where: an exact diff
// when the versions are small and close, and for a hostile pair (thousands of short lines that all
// differ, which cost Myers' algorithm the square of the count) a cut diff that still shows every line
// it compared. Not timed: this file's time-out bounds the hostile case.
import { describe, expect, it } from "vitest";
import { boundedLineDiff, MAX_DIFF_CHARS, MAX_DIFF_EDITS, MAX_DIFF_LINES } from "./line-diff";

const count = (lines: { kind: string }[], kind: string) => lines.filter((l) => l.kind === kind).length;

describe("the bounded line diff", () => {
  it("is exact and whole for small or close versions", () => {
    expect(boundedLineDiff("a\nb\nc\n", "a\nx\nc\n")).toEqual({
      cut: [],
      lines: [
        { kind: "same", text: "a" },
        { kind: "removed", text: "b" },
        { kind: "added", text: "x" },
        { kind: "same", text: "c" },
      ],
    });
    expect(boundedLineDiff("", "new\npage")).toEqual({
      cut: [],
      lines: [
        { kind: "added", text: "new" },
        { kind: "added", text: "page" },
      ],
    });
    // 4,000 lines, every 20th changed: 400 edits, under the bound, aligned line by line.
    const before = Array.from({ length: 4000 }, (_, i) => `line ${i}`);
    const after = before.map((l, i) => (i % 20 === 0 ? `${l} changed` : l));
    const d = boundedLineDiff(before.join("\n"), after.join("\n"));
    expect(d.cut).toEqual([]);
    expect([count(d.lines, "removed"), count(d.lines, "added"), count(d.lines, "same")]).toEqual([200, 200, 3800]);
  });

  it("cuts a hostile pair of many short differing lines, and says so", () => {
    // Short lines a side, every one different (8,000 of them took 8.1 s on the main thread unbounded),
    // more of them than the bound on the differing part.
    const n = MAX_DIFF_LINES + 5000;
    const before = Array.from({ length: n }, (_, i) => (i % 2 ? "a" : "b")).join("\n");
    const after = Array.from({ length: n }, (_, i) => (i % 2 ? "c" : "a")).join("\n");
    const d = boundedLineDiff(before, after);
    expect(d.cut).toEqual(["lines", "edits"]);
    // The middle it could not align is shown whole: the old lines, then the new.
    expect(count(d.lines, "removed")).toBe(MAX_DIFF_LINES);
    expect(count(d.lines, "added")).toBe(MAX_DIFF_LINES);
    expect(d.lines.findIndex((l) => l.kind === "added")).toBe(MAX_DIFF_LINES);
  });

  it("cuts at the edit bound with few lines, and at the character bound", () => {
    const before = Array.from({ length: MAX_DIFF_EDITS }, (_, i) => `old ${i}`).join("\n");
    const after = Array.from({ length: MAX_DIFF_EDITS }, (_, i) => `new ${i}`).join("\n");
    expect(boundedLineDiff(`same\n${before}\nend`, `same\n${after}\nend`).cut).toEqual(["edits"]);
    const long = "x".repeat(MAX_DIFF_CHARS + 10);
    const d = boundedLineDiff(long, `${long}y`);
    expect(d.cut).toEqual(["chars"]);
    expect(d.lines).toEqual([{ kind: "same", text: "x".repeat(MAX_DIFF_CHARS) }]);
  });

  it("aligns one changed line in a 1 MB page exactly, wherever it is (the common start and end first)", () => {
    const page = Array.from({ length: 20_000 }, (_, i) => `Line ${i}: the quick brown fox, ${"x".repeat(30)}`);
    expect(page.join("\n").length).toBeGreaterThan(1_000_000);
    for (const at of [5, 10_000, 19_990]) {
      const after = page.map((l, i) => (i === at ? `${l} and more` : l));
      const d = boundedLineDiff(page.join("\n"), after.join("\n"));
      expect(d.cut).toEqual([]);
      expect(d.lines.filter((l) => l.kind !== "same")).toEqual([
        { kind: "removed", text: page[at] },
        { kind: "added", text: after[at] },
      ]);
      expect(d.lines).toHaveLength(20_001);
    }
  });

  it("a differing part longer than the bound: the first of it compared, the rest left out, and said so", () => {
    const before = ["start", ...Array.from({ length: MAX_DIFF_LINES + 10 }, (_, i) => `old ${i}`), "end"];
    const after = ["start", ...Array.from({ length: MAX_DIFF_LINES + 10 }, (_, i) => `new ${i}`), "end"];
    const d = boundedLineDiff(before.join("\n"), after.join("\n"));
    expect(d.cut).toEqual(["lines", "edits"]);
    expect(d.lines[0]).toEqual({ kind: "same", text: "start" });
    expect(count(d.lines, "removed")).toBe(MAX_DIFF_LINES);
    expect(d.lines.at(-1)).toEqual({ kind: "added", text: `new ${MAX_DIFF_LINES - 1}` });
  });
});
