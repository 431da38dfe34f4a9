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
    // 8,000 short lines a side, every one different: the shape that took 8.1 s on the main thread.
    const before = Array.from({ length: 8000 }, (_, i) => (i % 2 ? "a" : "b")).join("\n");
    const after = Array.from({ length: 8000 }, (_, i) => (i % 2 ? "c" : "a")).join("\n");
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
});
