// Issue 27, finding 3: the sign-in page's `next` accepted `/\evil.example` and `/<TAB>/evil.example`
// ("starts with / but not //"), and Chromium then left Tally. Only same-origin paths pass now.
import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safe-next";

const HOSTILE = [
  "/\\evil.example",
  "/\\/evil.example",
  "\\\\evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/ /evil.example".replace(" ", "\u0000"),
  "//evil.example",
  "///evil.example",
  "////evil.example/x",
  "https://evil.example",
  "http:evil.example",
  "HTTPS://evil.example/",
  "javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "evil.example",
  "/..//evil.example",
  "/./\\evil.example",
  "\t/evil.example",
  " /evil.example",
  "/%2F%2Fevil.example".replace(/%2F/g, "/"),
  "",
  "/" + "a".repeat(3000),
];

describe("safeNextPath", () => {
  it.each(HOSTILE.map((h) => [JSON.stringify(h), h]))("refuses %s", (_shown, hostile) => {
    expect(safeNextPath(hostile)).toBe("/");
  });

  it.each([
    ["/jobs", "/jobs"],
    ["/jobs?status=failed&limit=10", "/jobs?status=failed&limit=10"],
    ["/jobs/abc#timeline", "/jobs/abc#timeline"],
    ["/settings/users", "/settings/users"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["/a/../outbound", "/outbound"],
  ])("keeps %s", (input, out) => {
    expect(safeNextPath(input)).toBe(out);
  });

  it("refuses what is not a string", () => {
    expect(safeNextPath(undefined)).toBe("/");
    expect(safeNextPath(null)).toBe("/");
  });
});
