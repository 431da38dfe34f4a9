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

  // Issue 27: spreadsheets skip these before a formula, or read the full-width forms as = + - @.
  it.each([
    " =1+1",
    "\n=1+1",
    "\u00a0=1+1",
    "\uff1d1+1",
    "\uff0bSUM(A1)",
    "\uff0d1",
    "\uff20SUM(A1)",
    "\u3000=1",
    "\ufeff=1",
  ])("defuses a formula behind a space, a line feed, a no-break space or in full-width: %j", (v) => {
    expect(csvCell(v).replace(/^"/, "").startsWith("'")).toBe(true);
  });

  it("leaves numbers and ordinary text alone", () => {
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell("a=b")).toBe("a=b");
  });
});
