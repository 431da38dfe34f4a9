import "server-only";

// CSV per RFC 4180 (comma separated, CRLF line ends, a field with a comma, quote, CR or LF is quoted
// and its quotes doubled) with spreadsheet formula injection defused: a text cell starting with
// = + - @ (or tab / CR, which some spreadsheets skip before a formula) gets a leading ' so it is
// shown as text, never evaluated (OWASP "CSV Injection"). Spreadsheets also skip leading spaces, line
// feeds and no-break spaces, and read the full-width ＝ ＋ － ＠ as their ASCII forms: those starts are
// defused too. Pure, so it is tested without a database.

const FORMULA_START = /^[=+\-@\t\r\n \u00a0\u2007\u202f\u3000\ufeff\uff1d\uff0b\uff0d\uff20]/;

export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(cells: Array<string | number | null>): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
