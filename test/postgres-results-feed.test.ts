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
  for (let w = 0; w < WRITERS; w++)
    await db().job.create({ data: { id: `pg-writer-${w}`, kind: "crawl", outcome: "stored" } });
  tally = await startTally({
    DATABASE_URL: t.url,
    TALLY_WORKER: "off",
    TALLY_RECONCILE_INTERVAL_MINUTES: "0",
    GEONODE_SCRAPER_API_KEY: "k",
    SCRAPER_API_BASE_URL: "http://127.0.0.1:9",
  });
});
afterAll(async () => {
  await tally?.stop();
  await t?.cleanup();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const feedPage = z.object({
  items: z.array(z.object({ jobId: z.string(), itemKey: z.string() })),
  nextCursor: z.string(),
  hasMore: z.boolean(),
});

/** Inserts a few rows per transaction; every other transaction waits after taking its ids. */
async function writer(w: number): Promise<number> {
  const c = new pg.Client({ connectionString: t.url });
  await c.connect();
  let written = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      await c.query("BEGIN");
      for (let i = 0; i < 3; i++) {
        await c.query(`INSERT INTO "Result" ("jobId","itemKey","format","createdAt") VALUES ($1,$2,'markdown',now())`, [
          `pg-writer-${w}`,
          `${round}-${i}`,
        ]);
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
    let cursor: string | null = null;
    let done = false;
    const writers = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    void writers.finally(() => (done = true));
    // Rows appear once every older transaction of the server has ended (other databases' too:
    // transaction ids are server-wide), so a busy server shows them late, never out of order.
    const deadline = Date.now() + 60_000;
    let written = Infinity;
    while (seen.length < written && Date.now() < deadline) {
      const res = await fetch(`${tally.url}/api/results?limit=${LIMIT}${cursor ? `&after=${cursor}` : ""}`, {
        headers: auth,
      });
      expect(res.status).toBe(200);
      const page = feedPage.parse(await res.json());
      seen.push(...page.items.map((r) => `${r.jobId}/${r.itemKey}`));
      cursor = page.nextCursor;
      if (done) written = (await writers).reduce((a, b) => a + b, 0);
      if (!page.hasMore) await sleep(5);
    }
    const all = await db().result.count();
    expect(all).toBe(written);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(written);
  });

  it("keeps a row whose transaction commits after a later row's, which paging by id would skip", async () => {
    const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };
    const page = async (after: string | null) =>
      feedPage.parse(
        await (
          await fetch(`${tally.url}/api/results?limit=${LIMIT}${after ? `&after=${after}` : ""}`, { headers: auth })
        ).json(),
      );
    const maxId = async () => (await db().result.aggregate({ _max: { id: true } }))._max.id ?? 0;
    await db().job.create({ data: { id: "late-commit", kind: "crawl", outcome: "stored" } });
    // Both readers start at the end of what is there.
    let cursor = (await page(null)).nextCursor;
    for (let p = await page(cursor); p.items.length > 0; p = await page(cursor)) cursor = p.nextCursor;
    let lastId = await maxId();

    const early = new pg.Client({ connectionString: t.url });
    await early.connect();
    try {
      await early.query("BEGIN");
      await early.query(
        `INSERT INTO "Result" ("jobId","itemKey","format","createdAt") VALUES ('late-commit','early-id','markdown',now())`,
      );
      await db()
        .$executeRaw`INSERT INTO "Result" ("jobId","itemKey","format","createdAt") VALUES ('late-commit','later-id','markdown',now())`;
      // Both readers look now: only the later id is committed.
      const first = await page(cursor);
      cursor = first.nextCursor;
      const byId = await db().$queryRaw<
        { id: number; itemKey: string }[]
      >`SELECT "id","itemKey" FROM "Result" WHERE "id" > ${lastId} ORDER BY "id"`;
      expect(byId.map((r) => r.itemKey)).toEqual(["later-id"]);
      lastId = byId[0].id;
      await early.query("COMMIT");

      // The feed shows both once the early transaction has ended (and any other older one on the server).
      const later: typeof first.items = [];
      for (
        const end = Date.now() + 30_000;
        later.length < 2 - first.items.length && Date.now() < end;
        await sleep(20)
      ) {
        const p = await page(cursor);
        later.push(...p.items);
        cursor = p.nextCursor;
      }
      const afterById = await db().$queryRaw<
        { itemKey: string }[]
      >`SELECT "itemKey" FROM "Result" WHERE "id" > ${lastId} ORDER BY "id"`;
      expect(afterById).toEqual([]); // the wrong reader has lost "early-id" for good
      expect(first.items).toEqual([]); // the later id waits while an older transaction is open
      expect(later.map((r) => r.itemKey)).toEqual(["early-id", "later-id"]);
    } finally {
      await early.end();
    }
  });

  it("refuses a SQLite feed cursor with a reason", async () => {
    const sqliteCursor = Buffer.from(JSON.stringify(["f1", 10])).toString("base64url");
    const res = await fetch(`${tally.url}/api/results?after=${sqliteCursor}`, {
      headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "bad_request" });
  });
});
