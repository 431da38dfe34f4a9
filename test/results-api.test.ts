// The pull routes over real HTTP against Tally's server (run `npm run build` first): one job's
// results paged through a 10,000-page crawl, the change feed's filters and end-of-feed cursor, and
// bad input answered 400 with a reason, an unknown job 404, no credentials 401.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { insertJob, insertResults, untilFeedShowsAll } from "@/lib/results/seed.test-util";
import { createTestDb, type TestDb } from "./db";
import { openSql } from "./sql";
import { TEST_STORE } from "./store";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let t: TestDb;
let tally: TallyServer;
const CRAWL = 10_000;
const T0 = Date.parse("2026-11-28T08:00:00Z");
// Keys out of id order, so a list sorted by itemKey instead of stored order would fail the test.
const crawlKey = (i: number) => `https://big.example/${String((i * 7919) % CRAWL).padStart(5, "0")}`;

beforeAll(async () => {
  t = await createTestDb();
  const sql = await openSql(t.url);
  await insertJob(sql, { id: "big-crawl", kind: "crawl" });
  await insertJob(sql, { id: "small-batch", kind: "batch" });
  await insertJob(sql, { id: "no-results", kind: "extract", outcome: "pending" });
  // Many rows share one createdAt (as a page of a crawl does), so only the id can order them.
  await insertResults(sql, {
    jobId: "big-crawl",
    count: CRAWL,
    itemKey: crawlKey,
    at: (i) => T0 + Math.floor(i / 500) * 1000,
  });
  await insertResults(sql, { jobId: "small-batch", count: 7, itemKey: String, metadata: (i) => ({ input_index: i }) });
  await untilFeedShowsAll(sql, TEST_STORE === "postgres");
  await sql.close();
  tally = await startTally({}, t.url);
});
afterAll(async () => {
  await tally?.stop();
  await t?.cleanup();
});

const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };
async function get(path: string, headers: Record<string, string> = auth) {
  const res = await fetch(tally.url + path, { headers });
  return { status: res.status, json: z.record(z.string(), z.unknown()).parse(await res.json()) };
}

const item = z.strictObject({
  itemKey: z.string(),
  url: z.string().nullable(),
  status: z.string(),
  format: z.string(),
  markdown: z.string().nullable(),
  html: z.string().nullable(),
  bodyError: z.null(),
  metadata: z.unknown(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  tokensCharged: z.number(),
  createdAt: z.iso.datetime(),
});
const jobPage = z.strictObject({ items: z.array(item), nextCursor: z.string().nullable() });
const feedPage = z.strictObject({
  items: z.array(item.extend({ jobId: z.string(), kind: z.string() })),
  nextCursor: z.string(),
  hasMore: z.boolean(),
});

async function walkJob(jobId: string, limit: number) {
  const keys: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const r = await get(`/api/jobs/${jobId}/results?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(r.status).toBe(200);
    const page = jobPage.parse(r.json);
    keys.push(...page.items.map((i) => i.itemKey));
    cursor = page.nextCursor;
    pages++;
  } while (cursor);
  return { keys, pages };
}

describe("GET /api/jobs/:jobId/results", () => {
  // 271 requests at limit 37: well over the default 30 s on a busy two-core machine.
  it.each([1000, 37])(
    "pages a 10,000-page crawl with limit %i: every item once, in stored order",
    { timeout: 120_000 },
    async (limit) => {
      const { keys, pages } = await walkJob("big-crawl", limit);
      expect(pages).toBe(Math.ceil(CRAWL / limit));
      expect(keys).toEqual(Array.from({ length: CRAWL }, (_, i) => crawlKey(i)));
    },
  );

  it("answers the full stored content, metadata parsed", async () => {
    const page = jobPage.parse((await get("/api/jobs/small-batch/results")).json);
    expect(page.nextCursor).toBeNull();
    expect(page.items.map((i) => i.itemKey)).toEqual(["0", "1", "2", "3", "4", "5", "6"]);
    expect(page.items[3]).toMatchObject({
      markdown: "# Page 3\n\nBody of 3.",
      metadata: { input_index: 3 },
      tokensCharged: 1,
    });
    expect(jobPage.parse((await get("/api/jobs/no-results/results")).json)).toEqual({ items: [], nextCursor: null });
  });

  it("answers 404 for a job Tally does not know", async () => {
    const r = await get("/api/jobs/nope/results");
    expect(r.status).toBe(404);
    expect(r.json.error).toBe("not_found");
  });

  it.each([
    ["cursor=garbage!", "cursor"],
    [`cursor=${Buffer.from('["f1",5]').toString("base64url")}`, "cursor"],
    ["limit=0", "at least 1"],
    ["limit=1001", "at most 1000"],
    ["limit=ten", "number"],
  ])("answers 400 with a reason for %s", async (query, reason) => {
    const r = await get(`/api/jobs/big-crawl/results?${query}`);
    expect(r.status).toBe(400);
    expect(String(r.json.message)).toContain(reason);
  });

  it("answers 401 without credentials", async () => {
    expect((await get("/api/jobs/big-crawl/results", {})).status).toBe(401);
    expect((await get("/api/results", {})).status).toBe(401);
    expect((await get("/api/results/export", {})).status).toBe(401);
  });
});

describe("GET /api/results (change feed)", () => {
  it("lists every result once in stored order, then hands back the cursor to poll from", async () => {
    let after = "";
    let seen = 0;
    let last: z.infer<typeof feedPage> | undefined;
    for (;;) {
      last = feedPage.parse((await get(`/api/results?limit=1000${after ? `&after=${after}` : ""}`)).json);
      seen += last.items.length;
      after = last.nextCursor;
      if (!last.hasMore) break;
    }
    expect(seen).toBe(CRAWL + 7);
    const end = feedPage.parse((await get(`/api/results?after=${after}`)).json);
    expect(end).toEqual({ items: [], nextCursor: after, hasMore: false });
  });

  it("filters by kind and by jobId", async () => {
    const batch = feedPage.parse((await get("/api/results?kind=batch")).json);
    expect(batch.items.map((i) => [i.jobId, i.kind, i.itemKey])).toEqual(
      ["0", "1", "2", "3", "4", "5", "6"].map((k) => ["small-batch", "batch", k]),
    );
    const byJob = feedPage.parse((await get("/api/results?jobId=big-crawl&limit=3")).json);
    expect(byJob.items.map((i) => i.itemKey)).toEqual([crawlKey(0), crawlKey(1), crawlKey(2)]);
    expect(byJob.hasMore).toBe(true);
    expect(feedPage.parse((await get("/api/results?kind=extract")).json).items).toEqual([]);
  });

  it.each([
    ["after=nope!", "cursor"],
    [`after=${Buffer.from('["r1",5]').toString("base64url")}`, "cursor"],
    ["limit=-1", "at least 1"],
    ["kind=map", "kind"],
  ])("answers 400 with a reason for %s", async (query, reason) => {
    const r = await get(`/api/results?${query}`);
    expect(r.status).toBe(400);
    expect(String(r.json.message)).toContain(reason);
  });
});
