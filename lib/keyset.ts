import "server-only";
import { z } from "zod";
import { BadRequest } from "./errors";

// Keyset pagination on (time, id), newest first. The time column is the last column of every index
// the lists filter on, so each page is an index range read whatever its depth; the id (the row id the
// index carries anyway) breaks ties within a millisecond. Callers write the condition as
//   time <= c.at AND (time < c.at OR id < c.id)
// where the plain `<=` is what lets the database seek into the index and the OR only settles ties.

export type Keyset<Id extends number | string> = { at: Date; id: Id };

const cursorSchema = z.tuple([z.iso.datetime(), z.union([z.number().int(), z.string().min(1).max(200)])]);

export function encodeCursor(at: Date, id: number | string): string {
  return Buffer.from(JSON.stringify([at.toISOString(), id])).toString("base64url");
}

export function decodeCursor<Id extends number | string>(
  raw: string | undefined,
  idSchema: z.ZodType<Id>,
): Keyset<Id> | undefined {
  if (raw === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw new BadRequest("Invalid cursor: start again from the first page");
  }
  const parsed = cursorSchema.safeParse(json);
  const id = parsed.success ? idSchema.safeParse(parsed.data[1]) : undefined;
  if (!parsed.success || !id?.success) throw new BadRequest("Invalid cursor: start again from the first page");
  return { at: new Date(parsed.data[0]), id: id.data };
}

/** Cuts the extra row fetched to know whether another page exists, and the cursor to reach it. */
export function pageOf<R extends { id: number | string }>(rows: R[], limit: number, at: (r: R) => Date) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(at(last), last.id) : null };
}
