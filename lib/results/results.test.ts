// The read models against a real test database (SQLite, and PostgreSQL in its run): one job's results
// paged by keyset, the feed's filters and end-of-feed cursor, and the export's filters (the Jobs
// list's own plus since/until).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/test/db";
import { openSql } from "@/test/sql";
import { TEST_STORE } from "@/test/store";
import { exportQuerySchema, feedQuerySchema, jobResultsQuerySchema } from "./contracts";
import { exportResults } from "./export";
import { readFeed } from "./feed";
import { listJobResults } from "./job-results";
import { insertJob, insertResults, untilFeedShowsAll } from "./seed.test-util";

let t: TestDb;
const T0 = Date.parse("2026-11-20T10:00:00Z");
beforeAll(async () => {
  t = await createTestDb();
  const sql = await openSql(t.url);
  await insertJob(sql, { id: "crawl-1", kind: "crawl", url: "https://docs.example/a", createdAt: T0 });
  await insertJob(sql, {
    id: "extract-1",
    kind: "extract",
    url: "https://shop.example/x",
    status: "completed",
    outcome: "stored",
    createdAt: T0 + 3_600_000,
  });
  await insertJob(sql, {
    id: "batch-1",
    kind: "batch",
    url: "https://news.example/",
    status: "failed",
    outcome: "dead_lettered",
    createdAt: T0 + 7_200_000,
  });
  // Interleaved so the feed's order (id) differs from each job's own grouping.
  for (let round = 0; round < 5; round++) {
    await insertResults(sql, {
      jobId: "crawl-1",
      count: 3,
      itemKey: (i) => `https://docs.example/a/${round * 3 + i}`,
      at: () => T0 + round * 60_000,
    });
    await insertResults(sql, {
      jobId: "batch-1",
      count: 1,
      itemKey: () => String(round),
      at: () => T0 + round * 60_000 + 1,
    });
  }
  await insertResults(sql, {
    jobId: "extract-1",
    count: 1,
    itemKey: () => "0",
    at: () => T0 + 10 * 60_000,
    metadata: () => ({ title: "X", links: ["a"] }),
  });
  await untilFeedShowsAll(sql, TEST_STORE === "postgres");
  await sql.close();
});
afterAll(() => t?.cleanup());

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("listJobResults", () => {
  it("pages one job's results in stored order with full content and parsed metadata", async () => {
    const keys: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof listJobResults>> = await listJobResults(
        "crawl-1",
        jobResultsQuerySchema.parse({ limit: 4, cursor: cursor ?? undefined }),
      );
      keys.push(...page.items.map((i) => i.itemKey));
      cursor = page.nextCursor;
    } while (cursor);
    expect(keys).toEqual(Array.from({ length: 15 }, (_, i) => `https://docs.example/a/${i}`));
    const [one] = (await listJobResults("extract-1", jobResultsQuerySchema.parse({}))).items;
    expect(one).toMatchObject({
      itemKey: "0",
      metadata: { title: "X", links: ["a"] },
      tokensCharged: 1,
      createdAt: new Date(T0 + 600_000).toISOString(),
    });
  });

  it("throws NotFound for an unknown job", async () => {
    await expect(listJobResults("nope", jobResultsQuerySchema.parse({}))).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("readFeed", () => {
  it("filters by kind and jobId, and at the end hands back the cursor to poll from", async () => {
    const crawl = await readFeed(feedQuerySchema.parse({ kind: "crawl", limit: 100 }));
    expect(crawl.items).toHaveLength(15);
    expect(crawl.items.every((i) => i.kind === "crawl" && i.jobId === "crawl-1")).toBe(true);
    expect(crawl.hasMore).toBe(false);
    const again = await readFeed(feedQuerySchema.parse({ kind: "crawl", after: crawl.nextCursor }));
    expect(again).toEqual({ items: [], nextCursor: crawl.nextCursor, hasMore: false });
    const batch = await readFeed(feedQuerySchema.parse({ jobId: "batch-1" }));
    expect(batch.items.map((i) => i.itemKey)).toEqual(["0", "1", "2", "3", "4"]);
    const empty = await readFeed(feedQuerySchema.parse({ jobId: "none" }));
    expect(empty.items).toEqual([]);
    expect(typeof empty.nextCursor).toBe("string");
  });

  it("refuses a cursor of another list", () => {
    const perJob = jobResultsQuerySchema.parse({ limit: 1 });
    expect(perJob.cursor).toBeUndefined();
    expect(feedQuerySchema.safeParse({ after: "eyJ4IjoxfQ" }).success).toBe(false);
  });
});

describe("exportResults", () => {
  const lines = async (q: Record<string, string>) =>
    (await text(exportResults(exportQuerySchema.parse(q)).body)).split("\n").filter(Boolean);

  it("streams every row as JSONL in stored-time order", async () => {
    const all = (await lines({})).map((l) => JSON.parse(l) as { jobId: string; createdAt: string });
    expect(all).toHaveLength(21);
    expect(all.map((r) => r.createdAt)).toEqual([...all.map((r) => r.createdAt)].sort());
  });

  it("applies since/until and the Jobs filters", async () => {
    const since = new Date(T0 + 2 * 60_000).toISOString();
    const until = new Date(T0 + 4 * 60_000).toISOString();
    expect(await lines({ since, until })).toHaveLength(8); // rounds 2 and 3: 3 crawl + 1 batch each
    expect(await lines({ kind: "batch" })).toHaveLength(5);
    expect(await lines({ status: "failed" })).toHaveLength(5);
    expect(await lines({ outcome: "stored" })).toHaveLength(16);
    expect(await lines({ q: "docs.example/a" })).toHaveLength(15);
    expect(await lines({ q: "extract-1" })).toHaveLength(1);
    expect(await lines({ from: new Date(T0 + 3_600_000).toISOString() })).toHaveLength(6);
    expect(await lines({ jobId: "batch-1", kind: "crawl" })).toHaveLength(0);
  });

  it("refuses bad input with a reason", () => {
    const bad = (q: Record<string, string>) => exportQuerySchema.safeParse(q).error?.issues[0]?.message;
    expect(bad({ format: "xml" })).toContain("jsonl or csv");
    expect(bad({ since: "yesterday" })).toContain("date");
    expect(bad({ since: "2026-11-02T00:00:00Z", until: "2026-11-01T00:00:00Z" })).toContain("after until");
  });
});
