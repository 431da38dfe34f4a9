// Every paged list over real HTTP (run `npm run build` first) answers a cursor it did not hand out —
// garbage, or another list's cursor — the same way: 400 {"error":"bad_request"} with the reason, never
// a 5xx and never the first page as if nothing were wrong; its own cursor is accepted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { TEST_STORE } from "./store";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let tally: TallyServer;
beforeAll(async () => {
  tally = await startTally();
});
afterAll(async () => {
  await tally?.stop();
});

// The wire format, written out here so a change to it shows up as a failing test.
const cursor = (...parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString("base64url");
const MS = Date.parse("2026-12-01T00:00:00Z");

// Each list: its URL with the cursor parameter last, and a cursor of its own shape.
const LISTS: Array<{ name: string; url: string; own: string; ownStatus?: number }> = [
  { name: "jobs", url: "/api/jobs?cursor=", own: cursor("j1", MS, "job-1") },
  // no such job: its own cursor passes the check and the job is then not found
  { name: "job results", url: "/api/jobs/job-1/results?cursor=", own: cursor("r1", 5), ownStatus: 404 },
  {
    name: "results feed",
    url: "/api/results?after=",
    own: TEST_STORE === "postgres" ? cursor("f2", 0, 0) : cursor("f1", 0),
  },
  { name: "inbound deliveries", url: "/api/deliveries?log=inbound&cursor=", own: cursor("di1", MS, 5) },
  { name: "platform deliveries", url: "/api/deliveries?log=platform&cursor=", own: cursor("dp1", MS, "pd_1") },
  { name: "audit log", url: "/api/audit?cursor=", own: cursor("au1", MS, 5) },
  { name: "operation runs", url: "/api/operations/history?cursor=", own: cursor("op1", MS, "run_1") },
  { name: "dead letters", url: "/api/dead-letters?cursor=", own: cursor("dl1", 5) },
  { name: "outbound deliveries", url: "/api/outbound?cursor=", own: cursor("ob1", 5) },
];

const refusal = z.strictObject({
  error: z.literal("bad_request"),
  message: z
    .string()
    .regex(/^Invalid query: (cursor|after): not a cursor this API returned \(pass nextCursor back unchanged\)$/),
  details: z.array(z.object({ path: z.string(), message: z.string() })).min(1),
});

async function get(url: string) {
  const res = await fetch(tally.url + url, { headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` } });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe.each(LISTS)("GET $name", ({ url, own, ownStatus, name }) => {
  it("accepts its own cursor", async () => {
    const r = await get(url + own);
    expect(r.status, JSON.stringify(r.body)).toBe(ownStatus ?? 200);
  });

  const others = LISTS.filter((l) => l.name !== name && l.own !== own);
  it.each([
    ["garbage", "garbage!"],
    ["base64url that is not JSON", Buffer.from("not json").toString("base64url")],
    ["JSON of the wrong shape", cursor({ t: MS, i: "x" })],
    [
      "its own cursor with a part added",
      cursor(...z.array(z.unknown()).parse(JSON.parse(Buffer.from(own, "base64url").toString())), 1),
    ],
    ...others.map((o): [string, string] => [`the ${o.name} cursor`, o.own]),
  ])("answers 400 with the reason to %s", async (_, bad) => {
    const r = await get(url + encodeURIComponent(bad));
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(refusal.parse(r.body).details[0]?.path).toMatch(/^(cursor|after)$/);
  });
});
