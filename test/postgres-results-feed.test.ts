// The change feed on PostgreSQL while transactions commit out of id order: writers on their own
// connections insert results, some holding their transaction open a while after taking their ids, so
// later ids commit first. A reader pages GET /api/results over real HTTP (Tally's server on the same
// database) with a small limit and ends with every committed row exactly once. Beside it, a wrong
// reader pages by id alone: it must miss rows, which shows the run really commits out of id order
// and that a feed paged by id would fail this test. Runs in the `postgres` vitest project.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { createTestDb, type TestDb } from "./db";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

const WRITERS = 4;
const ROUNDS = 25;
const LIMIT = 7;

let t: TestDb;
let tally: TallyServer;
beforeAll(async () => {
  t = await createTestDb();
  for (let w = 0; w < WRITERS; w++) await db().job.create({ data: { id: `pg-writer-${w}`, kind: "crawl", outcome: "stored" } });
  tally = await startTally({ DATABASE_URL: t.url, TALLY_WORKER: "off", TALLY_RECONCILE_INTERVAL_MINUTES: "0", GEONODE_SCRAPER_API_KEY: "k", SCRAPER_API_BASE_URL: "http://127.0.0.1:9" });
});
afterAll(async () => {
  await tally?.stop();
  await t?.cleanup();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const feedPage = z.object({ items: z.array(z.object({ jobId: z.string(), itemKey: z.string() })), nextCursor: z.string(), hasMore: z.boolean() });

/** Inserts a few rows per transaction; every other transaction waits after taking its ids. */
async function writer(w: number): Promise<number> {
  const c = new pg.Client({ connectionString: t.url });
  await c.connect();
  let written = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      await c.query("BEGIN");
      for (let i = 0; i < 3; i++) {
        await c.query(`INSERT INTO "Result" ("jobId","itemKey","format","createdAt") VALUES ($1,$2,'markdown',now())`, [`pg-writer-${w}`, `${round}-${i}`]);
      }
      if ((round + w) % 2 === 0) await sleep(40 + ((w * 17 + round * 7) % 60));
      await c.query("COMMIT");
      written += 3;
    }
  } finally {
    await c.end();
  }
  return written;
}

describe("the change feed on PostgreSQL", () => {
  it("never skips or repeats a row while transactions commit out of id order", async () => {
    const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };
    const seen: string[] = [];
    const byId = { last: 0, seen: [] as string[] };
    const naive = new pg.Client({ connectionString: t.url });
    await naive.connect();
    let cursor: string | null = null;
    let done = false;
    const writers = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w))).finally(() => (done = true));
    try {
      for (let quiet = 0; quiet < 3; ) {
        const res = await fetch(`${tally.url}/api/results?limit=${LIMIT}${cursor ? `&after=${cursor}` : ""}`, { headers: auth });
        expect(res.status).toBe(200);
        const page = feedPage.parse(await res.json());
        seen.push(...page.items.map((r) => `${r.jobId}/${r.itemKey}`));
        cursor = page.nextCursor;
        // The wrong reader: "id > the last id I saw", as a feed paged by id would do.
        const { rows } = await naive.query<{ id: number; jobId: string; itemKey: string }>(
          `SELECT "id","jobId","itemKey" FROM "Result" WHERE "id" > $1 ORDER BY "id" LIMIT ${LIMIT}`,
          [byId.last],
        );
        byId.seen.push(...rows.map((r) => `${r.jobId}/${r.itemKey}`));
        byId.last = rows.at(-1)?.id ?? byId.last;
        if (!page.hasMore && done) quiet++;
        else if (!page.hasMore) await sleep(5);
      }
      const written = (await writers).reduce((a, b) => a + b, 0);
      const all = await db().result.count();
      expect(all).toBe(written);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toHaveLength(written);
      // Paging by id loses rows that committed after a higher id had been read.
      const missedById = written - new Set(byId.seen).size;
      expect(missedById).toBeGreaterThan(0);
    } finally {
      await naive.end();
    }
  });

  it("refuses a SQLite feed cursor with a reason", async () => {
    const sqliteCursor = Buffer.from(JSON.stringify(["f1", 10])).toString("base64url");
    const res = await fetch(`${tally.url}/api/results?after=${sqliteCursor}`, { headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "bad_request" });
  });
});
