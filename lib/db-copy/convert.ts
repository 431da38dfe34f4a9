// Values as SQLite holds them → values PostgreSQL accepts for the target column's type. The target's
// catalog decides the type (not the SQLite declaration, which is only an affinity), so a column the
// models turn into a boolean or a timestamp is converted whatever SQLite stored in it.

/** The column types Tally's models produce on PostgreSQL (udt_name in the catalog). */
export const SUPPORTED_TYPES = ["text", "int4", "int8", "float8", "bool", "timestamp"] as const;
export type ColumnType = (typeof SUPPORTED_TYPES)[number];

export function isSupportedType(t: string): t is ColumnType {
  return (SUPPORTED_TYPES as readonly string[]).includes(t);
}

export class BadValue extends Error {}

// SQLite's own CURRENT_TIMESTAMP / datetime('now') text has no zone: it is UTC by definition.
const NO_ZONE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

/**
 * A DateTime as Prisma (or SQLite itself) stored it: ISO text with an offset
 * ("2026-12-01T04:00:00.000+00:00"), zone-less UTC text ("2026-12-01 04:00:00"), or integer
 * milliseconds since the epoch. Answered as UTC wall time with milliseconds, the form a
 * timestamp(3) column holds (PostgreSQL ignores no zone here, so nothing shifts with the server's TimeZone).
 */
export function toTimestamp(v: unknown): string {
  let d: Date;
  if (typeof v === "number" || typeof v === "bigint") d = new Date(Number(v));
  else if (typeof v === "string") {
    const s = v.trim();
    if (/^-?\d+$/.test(s)) d = new Date(Number(s));
    else d = new Date(NO_ZONE.test(s) ? `${s.replace(" ", "T")}${s.length === 10 ? "" : "Z"}` : s);
  } else throw new BadValue(`not a date-time: ${typeof v}`);
  if (Number.isNaN(d.getTime())) throw new BadValue(`not a date-time: ${JSON.stringify(v)}`);
  return d.toISOString().replace("T", " ").replace("Z", "");
}

function toBool(v: unknown): boolean {
  if (v === 0 || v === 1 || v === 0n || v === 1n) return Number(v) === 1;
  if (v === "0" || v === "false") return false;
  if (v === "1" || v === "true") return true;
  throw new BadValue(`not a boolean: ${JSON.stringify(v)}`);
}

function toInt(v: unknown, bits: 32 | 64): number | string {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n === "bigint") return n.toString();
  if (typeof n !== "number" || !Number.isInteger(n)) throw new BadValue(`not a whole number: ${JSON.stringify(v)}`);
  if (bits === 32 && (n < -2147483648 || n > 2147483647)) throw new BadValue(`out of range for integer: ${n}`);
  return n;
}

/** One value, NULL kept NULL. Throws BadValue with what was found. */
export function convert(type: ColumnType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case "bool":
      return toBool(v);
    case "timestamp":
      return toTimestamp(v);
    case "int4":
      return toInt(v, 32);
    case "int8":
      return toInt(v, 64);
    case "float8":
      if (typeof v === "number") return v;
      throw new BadValue(`not a number: ${JSON.stringify(v)}`);
    case "text":
      // TEXT affinity keeps text as text (JSON included, byte for byte); a number here is stringified.
      if (Buffer.isBuffer(v)) throw new BadValue("binary data in a text column");
      return typeof v === "string" ? v : String(v);
  }
}
