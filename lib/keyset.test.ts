import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  CURSOR_REASON,
  cursorParam,
  cursorText,
  decodeCursor,
  decodeKeyset,
  encodeCursor,
  intId,
  pageOf,
  readCursor,
  textId,
  timeIdPosition,
} from "./keyset";

const b64 = (text: string) => Buffer.from(text).toString("base64url");
const one = z.tuple([intId]);

describe("the keyset cursor codec", () => {
  it("round-trips any position of its list", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 8.64e15 }),
        fc.oneof(fc.nat(), fc.string({ minLength: 1, maxLength: 200 })),
        (tag, ms, id) => {
          const position = timeIdPosition(z.union([intId, textId]));
          expect(readCursor(tag, encodeCursor(tag, [ms, id]), position)).toEqual([ms, id]);
        },
      ),
    );
  });

  it("gives a (time, id) keyset back as the Date and id it was made from", () => {
    const at = new Date("2026-12-02T10:00:00.123Z");
    expect(decodeKeyset("di1", encodeCursor("di1", [at.getTime(), 42]), intId)).toEqual({ at, id: 42 });
    expect(decodeKeyset("di1", undefined, intId)).toBeUndefined();
    expect(decodeKeyset("di1", "", intId)).toBeUndefined();
  });

  it.each([
    ["another list's cursor", encodeCursor("r1", [5])],
    ["too many parts", encodeCursor("dl1", [5, 6])],
    ["too few parts", encodeCursor("dl1", [])],
    ["a text id where a number belongs", encodeCursor("dl1", ["5"])],
    ["a negative id", b64('["dl1",-1]')],
    ["a fraction", b64('["dl1",1.5]')],
    ["an object", b64('{"t":1,"i":"x"}')],
    ["JSON that is not an array", b64('"dl1"')],
    ["the old dead-letter format", b64("dl|5")],
    ["truncated", encodeCursor("dl1", [123456]).slice(0, -3)],
    ["padded base64", `${encodeCursor("dl1", [5])}==`],
    ["not base64url", "not a cursor!"],
    ["too long", encodeCursor("dl1", [5]) + "A".repeat(600)],
  ])("refuses %s", (_, raw) => {
    expect(readCursor("dl1", raw, one)).toBeNull();
    const err = (() => {
      try {
        decodeCursor("dl1", raw, one);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toMatchObject({
      code: "bad_request",
      message: `Invalid query: cursor: ${CURSOR_REASON}`,
      details: [{ path: "cursor", message: CURSOR_REASON }],
    });
  });

  it("refuses a (time, id) cursor whose time is not a number of milliseconds", () => {
    expect(() => decodeKeyset("au1", b64('["au1","2026-12-02T10:00:00Z",5]'), intId)).toThrow(CURSOR_REASON);
    expect(() => decodeKeyset("au1", b64('["au1",-5,5]'), intId)).toThrow(CURSOR_REASON);
  });

  it("as a query parameter: blank is the first page, a bad cursor is an issue with the one reason", () => {
    const q = z.object({ cursor: cursorParam({ tag: "dl1", position: one }) });
    expect(q.parse({}).cursor).toBeUndefined();
    expect(q.parse({ cursor: " " }).cursor).toBeUndefined();
    expect(q.parse({ cursor: encodeCursor("dl1", [7]) }).cursor).toEqual([7]);
    const bad = q.safeParse({ cursor: encodeCursor("ob1", [7]) });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues).toMatchObject([{ path: ["cursor"], message: CURSOR_REASON }]);

    const text = z.object({ cursor: cursorText({ tag: "dl1", position: one }) });
    expect(text.parse({ cursor: encodeCursor("dl1", [7]) }).cursor).toBe(encodeCursor("dl1", [7]));
    expect(text.safeParse({ cursor: "garbage" }).error?.issues).toMatchObject([{ message: CURSOR_REASON }]);
  });

  it("cuts the extra row off a page and points the next cursor at the last row shown", () => {
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i));
    const rows = [3, 2, 1].map((id) => ({ id, at: at(id) }));
    const page = pageOf("au1", rows, 2, (r) => r.at);
    expect(page.items.map((r) => r.id)).toEqual([3, 2]);
    expect(decodeKeyset("au1", page.nextCursor ?? undefined, intId)).toEqual({ at: at(2), id: 2 });
    expect(pageOf("au1", rows, 3, (r) => r.at).nextCursor).toBeNull();
  });
});
