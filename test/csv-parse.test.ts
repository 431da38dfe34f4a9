import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv-parse";

describe("the tests' CSV parser", () => {
  it("reads quoted commas, quotes and line breaks", () => {
    expect(parseCsv('a,"b,""c""\r\nd",\r\n1,2,3\r\n')).toEqual([
      ["a", 'b,"c"\r\nd', ""],
      ["1", "2", "3"],
    ]);
  });
  it.each(['a"b\r\n', '"a"b\r\n', '"open\r\n', "a\nb\r\n"])("refuses %j", (bad) => {
    expect(() => parseCsv(bad)).toThrow();
  });
});
