import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor";

describe("cursor", () => {
  it("round-trips its own position", () => {
    expect(decodeCursor("f1", 1, encodeCursor("f1", [123]))).toEqual([123]);
  });

  it.each([
    ["another list's cursor", encodeCursor("r1", [5])],
    ["too many parts", encodeCursor("f1", [5, 6])],
    ["not base64url JSON", "not a cursor!"],
    ["a negative position", Buffer.from('["f1",-1]').toString("base64url")],
    ["a fraction", Buffer.from('["f1",1.5]').toString("base64url")],
    ["an object", Buffer.from('{"t":1}').toString("base64url")],
    ["empty", ""],
  ])("refuses %s", (_, raw) => {
    expect(decodeCursor("f1", 1, raw)).toBeNull();
  });
});
