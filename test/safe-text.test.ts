// components/jobs/safe-text.ts: every invisible or bidirectional character scraped text can hide is
// shown as a marker (⟨U+XXXX⟩), astral ones (the tag characters) by their whole code point; visible
// text, tabs and line breaks, and emoji, pass as they are.
import { describe, expect, it } from "vitest";
import { countInvisible, revealControls, revealedParts } from "@/components/jobs/safe-text";

describe("revealing invisible characters", () => {
  it("marks bidi controls, fillers, separators, soft hyphens and tag characters", () => {
    const hidden: Array<[string, string]> = [
      ["\u202E", "202E"],
      ["\u2067", "2067"],
      ["\u061C", "061C"],
      ["\u00AD", "00AD"],
      ["\u2028", "2028"],
      ["\u2029", "2029"],
      ["\u115F", "115F"],
      ["\u1160", "1160"],
      ["\u3164", "3164"],
      ["\uFFA0", "FFA0"],
      ["\u200B", "200B"],
      ["\uFEFF", "FEFF"],
      ["\u0000", "0000"],
      ["\u0085", "0085"],
      ["\u{E0001}", "E0001"],
      ["\u{E0041}", "E0041"],
      ["\u{E007F}", "E007F"],
    ];
    for (const [c, hex] of hidden) expect(revealControls(`a${c}b`), hex).toBe(`a⟨U+${hex}⟩b`);
    expect(countInvisible(hidden.map(([c]) => c).join("x"))).toBe(hidden.length);
  });

  it("leaves visible text, tabs, line breaks and emoji alone, and parts markers from text", () => {
    const text = "exe.txt\tcafé 😀 ⟨U+202E⟩ typed\r\nnext line";
    expect(revealControls(text)).toBe(text);
    expect(countInvisible(text)).toBe(0);
    expect(revealedParts("\u202Etxt.exe\u{E0041}")).toEqual([
      { text: "⟨U+202E⟩", marker: true },
      { text: "txt.exe", marker: false },
      { text: "⟨U+E0041⟩", marker: true },
    ]);
  });
});
