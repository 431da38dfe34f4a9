import "server-only";
import { z } from "zod";
import { BadRequest } from "./errors";

// The one cursor codec of every paged list. A cursor is opaque to callers: base64url of the JSON array
// [tag, ...position]. The tag names the list and the version of its position, so one list's cursor is
// refused by another (and a position with more parts, such as the PostgreSQL feed's, is told apart
// from an older one) instead of being silently misread.
//
// A cursor that is not one this API handed out is always the caller's error, answered the same way by
// every list: 400 {"error":"bad_request","message":"Invalid query: cursor: …","details":[…]} — never a
// 500, and never a silent restart from the first page. Query schemas refuse it with `cursorParam`
// (the message then comes from the route wrapper's zod handling); lists that decode it themselves
// get the identical BadRequest from `decodeCursor`.
//
// Keyset pagination on (time, id), newest first: the time column is the last column of every index
// the lists filter on, so each page is an index range read whatever its depth; the id (the row id the
// index carries anyway) breaks ties within a millisecond. Callers write the condition as
//   time <= c.at AND (time < c.at OR id < c.id)
// where the plain `<=` is what lets the database seek into the index and the OR only settles ties.

export type CursorPart = string | number;

/** Why a cursor was refused, as the answer's message and details say it. */
export const CURSOR_REASON = "not a cursor this API returned (pass nextCursor back unchanged)";
const MAX_CURSOR = 500;

export function encodeCursor(tag: string, position: readonly CursorPart[]): string {
  return Buffer.from(JSON.stringify([tag, ...position])).toString("base64url");
}

/** The position `raw` holds, or null when it is not one of `tag`'s cursors with that position shape. */
export function readCursor<P>(tag: string, raw: string, position: z.ZodType<P>): P | null {
  if (raw.length > MAX_CURSOR || !/^[A-Za-z0-9_-]+$/.test(raw)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(json) || json[0] !== tag) return null;
  const parsed = position.safeParse(json.slice(1));
  return parsed.success ? parsed.data : null;
}

/** The error every list answers a bad cursor with (what `cursorParam` makes the route wrapper say). */
export function badCursor(): BadRequest {
  return new BadRequest(`Invalid query: cursor: ${CURSOR_REASON}`, [{ path: "cursor", message: CURSOR_REASON }]);
}

/** The position of an optional cursor; BadRequest when it is not one of `tag`'s. */
export function decodeCursor<P>(tag: string, raw: string | undefined, position: z.ZodType<P>): P | undefined {
  if (raw === undefined || raw === "") return undefined;
  const p = readCursor(tag, raw, position);
  if (p === null) throw badCursor();
  return p;
}

/**
 * A cursor query parameter: blank means the first page; anything but one of the list's own cursors is
 * a zod issue (so a route answers 400, and a page's safeParse reports it). `decoded` gives the position
 * as the parsed value; otherwise the value stays the cursor text (for queries that links are made from).
 * The tag may be read per request (the feed's depends on the store).
 */
export type CursorList<P> = { tag: string; position: z.ZodType<P> };

export function cursorParam<P>(list: CursorList<P> | (() => CursorList<P>)): z.ZodType<P | undefined, unknown> {
  return z
    .preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), z.string().optional())
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const { tag, position } = typeof list === "function" ? list() : list;
      const p = readCursor(tag, v, position);
      if (p === null) ctx.addIssue({ code: "custom", message: CURSOR_REASON });
      return p ?? undefined;
    });
}

/** Like `cursorParam`, but the parsed value is the cursor text itself, checked. */
export function cursorText<P>(list: CursorList<P>): z.ZodType<string | undefined, unknown> {
  return z
    .preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), z.string().optional())
    .refine((v) => v === undefined || readCursor(list.tag, v, list.position) !== null, { error: CURSOR_REASON });
}

// ---- keyset on (time, id) ----

export type Keyset<Id extends number | string> = { at: Date; id: Id };

const epochMs = z.number().int().min(0).max(8.64e15);
/** The position of a (time, id) keyset: [epoch milliseconds, id]. */
export const timeIdPosition = <Id extends number | string>(id: z.ZodType<Id>) => z.tuple([epochMs, id]);
/** Row ids as positions: a whole number, or a bounded non-empty text. */
export const intId = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
export const textId = z.string().min(1).max(200);

/** A (time, id) cursor's keyset; BadRequest when it is not one of `tag`'s. */
export function decodeKeyset<Id extends number | string>(
  tag: string,
  raw: string | undefined,
  id: z.ZodType<Id>,
): Keyset<Id> | undefined {
  const p = decodeCursor(tag, raw, timeIdPosition(id));
  return p && { at: new Date(p[0]), id: p[1] };
}

/** Cuts the extra row fetched to know whether another page exists, and the (time, id) cursor to reach it. */
export function pageOf<R extends { id: number | string }>(tag: string, rows: R[], limit: number, at: (r: R) => Date) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(tag, [at(last).getTime(), last.id]) : null };
}
