// Property-based tests (fast-check) of the URL-list parser: generated lists of valid URLs, invalid
// lines, blank lines, duplicates, CRLF / CR / LF line ends, a BOM, CSV with quotes, extra columns and a
// header. Every list: the counts add up to its lines, each invalid line is reported with its own line
// number, each valid URL comes out once in first-seen order, and parsing the output again changes nothing.
// A failure prints fast-check's seed and path; rerun with `fc.assert(…, { seed, path })` to reproduce it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseText, parseValues, SHOWN_INVALID, urlProblem } from "./parse-list";

type Kind = "valid" | "invalid" | "blank" | "dup";
type Line = { kind: Kind; value: string };

// No "xn--" label: that prefix claims Punycode, and next to a non-ASCII label ("xn--0.bücher.example") the
// WHATWG parser decodes it and refuses the URL, rightly (fast-check found it, seed 1472735726).
const segment = fc
  .stringMatching(/^[a-z0-9-]{1,12}$/)
  .filter((s) => !s.startsWith("-") && !s.endsWith("-") && !s.startsWith("xn--"));
const host = fc.oneof(
  fc.tuple(segment, fc.constantFrom("example", "example.org", "b\u00fccher.example")).map(([a, b]) => `${a}.${b}`),
  fc.ipV4(),
  fc.constant("[::1]"),
  fc.constant("localhost:8080"),
);
const pathPart = fc.array(fc.stringMatching(/^[A-Za-z0-9._~%!$&'()*+;=:@\u00e9\u4e2d-]{0,10}$/), { maxLength: 4 });
const validUrl = fc
  .tuple(
    fc.constantFrom("http", "https", "HTTPS"),
    host,
    pathPart,
    fc.option(fc.stringMatching(/^[a-z0-9=&]{0,12}$/), { nil: undefined }),
    fc.option(fc.stringMatching(/^[a-z0-9]{0,8}$/), { nil: undefined }),
  )
  .map(
    ([s, h, p, q, f]) => `${s}://${h}/${p.join("/")}${q === undefined ? "" : `?${q}`}${f === undefined ? "" : `#${f}`}`,
  );

// Invalid by construction, and none of them a CSV header: each holds a character a header cell cannot.
const invalidTemplate = fc.oneof(
  fc.constantFrom(
    "ftp://files.example/x",
    "mailto:someone@example.org",
    "javascript:alert(1)",
    "http://",
    "https://",
    "//example.org/path",
    "example.org/no-scheme",
    "not a url!",
    "http://exa mple.org/",
    "https://a.example/\u0001",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "\u00e9\u00e8:",
    "https://a.example/" + "x".repeat(2048),
  ),
  segment.map((s) => `${s}.example/${s}`),
  segment.map((s) => `file:///${s}`),
);
// Free text for the one-URL-a-line format: any line (no line break) that is not blank and not a URL.
const invalidFree = fc
  .string({ unit: "grapheme", maxLength: 40 })
  .filter((s) => !/[\r\n]/.test(s) && s.trim() !== "" && urlProblem(s.trim()) !== null);
const blank = fc.constantFrom("", " ", "\t", "  \t ", "\u00a0", "\u3000");
const pad = fc.constantFrom("", "", " ", "\t");

/** A list as the kinds of its lines; `dup` lines repeat an earlier valid URL (or become valid if none). */
function listOf(invalid: fc.Arbitrary<string>) {
  return fc
    .array(
      fc.oneof(
        { weight: 4, arbitrary: validUrl.map((value): Line => ({ kind: "valid", value })) },
        { weight: 2, arbitrary: invalid.map((value): Line => ({ kind: "invalid", value })) },
        { weight: 1, arbitrary: blank.map((value): Line => ({ kind: "blank", value })) },
        { weight: 2, arbitrary: fc.nat().map((n): Line => ({ kind: "dup", value: String(n) })) },
      ),
      { minLength: 1, maxLength: 60 },
    )
    .map((lines) => {
      const valid: string[] = [];
      // An empty last line would be read as the list's final line end (which adds no line): make it a space.
      const last = lines.length - 1;
      if (lines[last].kind === "blank" && lines[last].value === "") lines[last] = { kind: "blank", value: " " };
      return lines.map((l): Line => {
        if (l.kind === "valid") {
          if (valid.includes(l.value)) return { kind: "dup", value: l.value };
          valid.push(l.value);
          return l;
        }
        if (l.kind !== "dup") return l;
        if (valid.length === 0) return { kind: "blank", value: " " };
        return { kind: "dup", value: valid[Number(l.value) % valid.length] };
      });
    });
}

// LF and CRLF mixed, or old Mac CR alone (a CR line end before an empty LF-ended line would be a CRLF).
const eols = fc.oneof(fc.constant(["\r"]), fc.array(fc.constantFrom("\n", "\r\n"), { minLength: 1, maxLength: 3 }));
/** Joins lines with generated line ends, a BOM maybe, and a final line end maybe (which adds no line). */
const joined = (lines: string[], ends: readonly string[], bom: boolean, trailing: boolean) =>
  (bom ? "\uFEFF" : "") +
  lines.map((l, i) => l + (i < lines.length - 1 || trailing ? ends[i % ends.length] : "")).join("");

/** The properties every parse must have, given the kinds of its lines (line i+1 is lines[i]). */
function check(parsed: ReturnType<typeof parseText>, lines: Line[], headerLines = 0) {
  const count = (k: Kind) => lines.filter((l) => l.kind === k).length;
  expect(parsed.urls.length + parsed.invalid + parsed.duplicates + parsed.blank + headerLines).toBe(
    lines.length + headerLines,
  );
  expect(parsed.invalid).toBe(count("invalid"));
  expect(parsed.duplicates).toBe(count("dup"));
  expect(parsed.blank).toBe(count("blank"));
  const invalidAt = lines.flatMap((l, i) => (l.kind === "invalid" ? [i + 1 + headerLines] : []));
  expect(parsed.invalidLines.map((l) => l.line)).toEqual(invalidAt.slice(0, SHOWN_INVALID));
  for (const l of parsed.invalidLines) expect(l.reason).not.toBe("");
  const expected = lines.filter((l) => l.kind === "valid").map((l) => l.value);
  expect(parsed.urls).toEqual(expected);
  expect(new Set(parsed.urls).size).toBe(parsed.urls.length);
}

describe("URL-list parser, generated lists", () => {
  it("one URL a line: counts add up, invalid lines by number, each URL once, idempotent", () => {
    fc.assert(
      fc.property(
        listOf(fc.oneof(invalidTemplate, invalidFree)),
        eols,
        fc.boolean(),
        fc.boolean(),
        fc.array(pad, { minLength: 2, maxLength: 2 }),
        (lines, ends, bom, trailing, [before, after]) => {
          const text = joined(
            lines.map((l) => (l.kind === "blank" ? l.value : before + l.value + after)),
            ends,
            bom,
            trailing,
          );
          const parsed = parseText(text, "lines");
          check(parsed, lines);
          // Its own output parses to itself (an empty output is one blank line: the empty text).
          const again = parseText(parsed.urls.join("\n"), "lines");
          const blankAgain = parsed.urls.length === 0 ? 1 : 0;
          expect(again).toEqual({ urls: parsed.urls, invalidLines: [], invalid: 0, duplicates: 0, blank: blankAgain });
          // The JSON form ({"urls": [...]}) checks the same values the same way.
          expect(
            parseValues(
              text
                .replace(/^\uFEFF/, "")
                .split(/\r\n|\n|\r/)
                .slice(0, lines.length),
            ),
          ).toEqual(parsed);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("CSV: first column, quoted or not, extra columns, an optional header; the same properties", () => {
    const quoted = (v: string) => `"${v.replace(/"/g, '""')}"`;
    fc.assert(
      fc.property(
        listOf(invalidTemplate),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
        fc.constantFrom(null, "url", "URL,title", "link,name,notes", '"url","title"'),
        eols,
        fc.boolean(),
        fc.boolean(),
        (lines, quoting, header, ends, bom, trailing) => {
          const rows = lines.map((l, i) => {
            if (l.kind === "blank") return l.value;
            // A URL with a comma or a quote must be quoted to stay one cell.
            const cell = quoting[i % quoting.length] || /[",]/.test(l.value) ? quoted(l.value) : l.value;
            return i % 3 === 0 ? cell : `${cell},"a title, with a comma",${i}`;
          });
          const text = joined(header === null ? rows : [header, ...rows], ends, bom, trailing);
          const parsed = parseText(text, "csv");
          check(parsed, lines, header === null ? 0 : 1);
          const again = parseText(["url", ...parsed.urls.map(quoted)].join("\r\n"), "csv");
          expect(again).toEqual({ urls: parsed.urls, invalidLines: [], invalid: 0, duplicates: 0, blank: 0 });
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("any text at all: counts add up to the lines, line numbers in range and rising, never a throw", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 400 }),
        fc.constantFrom("lines" as const, "csv" as const),
        (text, format) => {
          const parsed = parseText(text, format);
          const body = text.replace(/^\uFEFF/, "");
          const lines = body.split(/\r\n|\n|\r/).length - (/[\r\n]$/.test(body) ? 1 : 0);
          const total = parsed.urls.length + parsed.invalid + parsed.duplicates + parsed.blank;
          // A CSV header is the one line none of the counts holds.
          expect(total === lines || (format === "csv" && total === lines - 1)).toBe(true);
          const numbers = parsed.invalidLines.map((l) => l.line);
          expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
          for (const n of numbers) expect(n >= 1 && n <= lines).toBe(true);
          for (const u of parsed.urls) expect(urlProblem(u)).toBeNull();
          expect(new Set(parsed.urls).size).toBe(parsed.urls.length);
          expect(parseText(parsed.urls.join("\n"), "lines").urls).toEqual(parsed.urls);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
