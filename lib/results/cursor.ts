import "server-only";
import { z } from "zod";

// Opaque cursors: base64url of [tag, ...numbers]. The tag names the list and the version of its
// position, so a per-job cursor is refused by the feed (and a future PostgreSQL feed cursor, whose
// position has more parts, is told apart from today's) instead of being silently misread.

const shape = z.tuple([z.string().max(20)]).rest(z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER));

export function encodeCursor(tag: string, position: number[]): string {
  return Buffer.from(JSON.stringify([tag, ...position])).toString("base64url");
}

/** The position a cursor holds, or null when it is not one of `tag`'s cursors with `parts` numbers. */
export function decodeCursor(tag: string, parts: number, raw: string): number[] | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(raw)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = shape.safeParse(json);
  if (!parsed.success) return null;
  const [got, ...position] = parsed.data;
  return got === tag && position.length === parts ? position : null;
}
