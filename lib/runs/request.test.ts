// The URL-list requests' shared guard (readListBody): runs and collections refuse a body over the
// limit, and one that arrived shorter than it said (cut by a proxy's buffer limit: never taken for a
// shorter list that looks complete), with a 400 and nothing read further; query flags read alike.
import { describe, expect, it } from "vitest";
import { readCollectionRequest } from "@/lib/collections";
import { MAX_LIST_BYTES, queryFlag, readListBody, readRunRequest } from ".";

const post = (body: string, headers: Record<string, string>) =>
  new Request("http://tally.test/api/runs", { method: "POST", body, headers });

describe("readListBody", () => {
  it("gives the type and the text of a whole body", async () => {
    const got = await readListBody(
      post("https://a.example/\n", { "content-type": "Text/Plain", "content-length": "19" }),
    );
    expect(got).toEqual({ type: "text/plain", text: "https://a.example/\n" });
  });

  it("refuses a body that arrived shorter than its Content-Length, for runs and collections alike", async () => {
    const cut = () =>
      post("https://a.example/\nhttps://b.exa", { "content-type": "text/plain", "content-length": "4000" });
    for (const read of [() => readRunRequest(cut()), () => readCollectionRequest(cut(), "create")])
      await expect(read()).rejects.toMatchObject({
        code: "bad_request",
        message: "The body arrived incomplete (32 of 4000 bytes): nothing was saved",
      });
  });

  it("refuses a body that says it is over the limit before reading it", async () => {
    const big = post("x", { "content-type": "text/plain", "content-length": String(MAX_LIST_BYTES + 1) });
    await expect(readListBody(big)).rejects.toMatchObject({
      code: "bad_request",
      message: `Body larger than ${MAX_LIST_BYTES} bytes`,
    });
  });
});

describe("queryFlag", () => {
  it('is on for "true" and "1", off for anything else given, undefined when absent', () => {
    expect([queryFlag("true"), queryFlag("1"), queryFlag("false"), queryFlag("yes"), queryFlag(undefined)]).toEqual([
      true,
      true,
      false,
      false,
      undefined,
    ]);
  });
});
