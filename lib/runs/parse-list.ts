// A list of URLs as an operator hands it over (pasted text, a file, a JSON array), checked line by
// line. Pure and shared: the create route uses it, and the /runs/new page uses it for its preview, so
// the preview and the answer cannot disagree. Blank lines are skipped; duplicates are kept once (the
// first one, in list order); a line that is not an absolute http(s) URL is invalid, with its number.

export const MAX_URL_LENGTH = 2048;
/** How many bad lines a 400 (and the preview) lists. */
export const SHOWN_INVALID = 20;

export type InvalidLine = { line: number; value: string; reason: string };

export type ParsedList = {
  /** Valid URLs, each once, in list order. */
  urls: string[];
  /** Bad lines, the first SHOWN_INVALID of them. */
  invalidLines: InvalidLine[];
  invalid: number;
  duplicates: number;
  blank: number;
};

/** Why `value` is not a URL Tally can submit; null when it is one. */
export function urlProblem(value: string): string | null {
  if (value.length > MAX_URL_LENGTH) return `longer than ${MAX_URL_LENGTH} characters`;
  if (/[\u0000-\u001f\u007f\s]/.test(value)) return "contains spaces or control characters";
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return "not an absolute URL";
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return "not an http:// or https:// URL";
  if (!u.hostname) return "no host";
  return null;
}

/** The first column of a CSV line (quoted or not). */
function firstColumn(line: string): string {
  if (line.startsWith('"')) {
    let out = "";
    for (let i = 1; i < line.length; i++) {
      const c = line[i];
      if (c === '"') {
        if (line[i + 1] === '"') {
          out += '"';
          i++;
        } else break;
      } else out += c;
    }
    return out;
  }
  const comma = line.indexOf(",");
  return comma === -1 ? line : line.slice(0, comma);
}

/** A header line: its first cell names a column instead of holding a URL ("url", "URL", "link"). */
const looksLikeHeader = (cell: string) => /^[A-Za-z_][A-Za-z0-9 _-]{0,40}$/.test(cell.trim());

export type ListFormat = "lines" | "csv";

/** Checks the values of a list (a JSON array, or the lines of a text body) one by one. */
export function parseValues(values: Iterable<string>): ParsedList {
  const seen = new Set<string>();
  const out: ParsedList = { urls: [], invalidLines: [], invalid: 0, duplicates: 0, blank: 0 };
  let line = 0;
  for (const raw of values) {
    line++;
    const value = raw.trim();
    if (value === "") {
      out.blank++;
      continue;
    }
    const problem = urlProblem(value);
    if (problem) {
      out.invalid++;
      if (out.invalidLines.length < SHOWN_INVALID)
        out.invalidLines.push({ line, value: value.length > 200 ? `${value.slice(0, 200)}…` : value, reason: problem });
      continue;
    }
    if (seen.has(value)) {
      out.duplicates++;
      continue;
    }
    seen.add(value);
    out.urls.push(value);
  }
  return out;
}

/** Splits a text body into its values: one URL a line, or the first column of a CSV (header optional). */
export function parseText(text: string, format: ListFormat): ParsedList {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  if (text.endsWith("\n") || text.endsWith("\r")) lines.pop();
  if (format === "lines") return parseValues(lines);
  const cells = lines.map((l) => firstColumn(l.trim()));
  const firstNonBlank = cells.findIndex((c) => c.trim() !== "");
  if (firstNonBlank !== -1 && looksLikeHeader(cells[firstNonBlank] ?? "")) {
    // The header keeps its line number: line numbers are the file's, as an editor shows them.
    cells[firstNonBlank] = "";
    const parsed = parseValues(cells);
    return { ...parsed, blank: parsed.blank - 1 };
  }
  return parseValues(cells);
}
