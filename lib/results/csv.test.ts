import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "./csv";

describe("csv", () => {
  it("quotes only what needs it and doubles quotes (RFC 4180)", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("cr\r")).toBe('"cr\r"');
    expect(csvCell(null)).toBe("");
    expect(csvCell("")).toBe("");
    expect(csvCell(42)).toBe("42");
    expect(csvLine(["a", null, 3])).toBe("a,,3\r\n");
  });

  it.each(['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"])("defuses a formula: %j", (v) => {
    const cell = csvCell(v);
    expect(cell.replace(/^"/, "").startsWith("'")).toBe(true);
  });

  it("leaves numbers and ordinary text alone", () => {
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell("a=b")).toBe("a=b");
  });
});
