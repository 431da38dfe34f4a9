// The change feed while results commit concurrently: four writer processes commit Result rows into the
// same SQLite file while a reader pages GET /api/results over real HTTP with a small limit, polling
// from its cursor whenever it catches up. At the end the reader has seen every committed row exactly
// once. Beside it, two wrong readers page the same rows by createdAt (keyset and offset) straight from
// SQLite and print how many rows they missed or repeated; the second test makes the out-of-order
// commit happen on purpose and shows a createdAt cursor skipping what the feed serves. Run
// `npm run build` first.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { seedJob } from "@/lib/results/seed.test-util";
import { createTestDb, type TestDb } from "./db";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

const WRITERS = 4;
/** The writers run at least this long, and on until the reader has reached the tail often enough. */
const WRITE_MS = 6000;
const TAIL_REACHED = 11;
const LIMIT = 10;

let t: TestDb;
let tally: TallyServer;
beforeAll(async () => {
  t = await createTestDb();
  const sql = new Database(t.file);
  for (let w = 0; w < WRITERS; w++) seedJob(sql, { id: `writer-${w}`, kind: w % 2 ? "batch" : "crawl" });
  sql.close();
  tally = await startTally({}, t.url);
});
afterAll(async () => {
  await tally?.stop();
  await t?.cleanup();
});

const feedPage = z.object({
  items: z.array(z.object({ jobId: z.string(), itemKey: z.string() })),
  nextCursor: z.string(),
  hasMore: z.boolean(),
});
const key = (r: { jobId: string; itemKey: string }) => `${r.jobId}/${r.itemKey}`;

const stopFile = () => path.join(t.dir, "stop-writing");

function writer(jobId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["test/results-writer.mjs", t.file, jobId, stopFile()], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) =>
      code === 0 ? resolve(Number(out.trim())) : reject(new Error(`writer ${jobId} exited ${code}: ${out}`)),
    );
  });
}

/** Pages by createdAt the two ways a feed must not: keyset on (createdAt, id), and OFFSET. */
function wrongReaders(sql: Database.Database) {
  const byTime = sql.prepare(
    `SELECT id, jobId, itemKey, createdAt FROM "Result" WHERE createdAt > ? OR (createdAt = ? AND id > ?) ORDER BY createdAt, id LIMIT ${LIMIT}`,
  );
  const byOffset = sql.prepare(`SELECT jobId, itemKey FROM "Result" ORDER BY createdAt, id LIMIT ${LIMIT} OFFSET ?`);
  const keyset = { at: "", id: 0, seen: [] as string[] };
  const offset = { n: 0, seen: [] as string[] };
  return {
    keyset,
    offset,
    step() {
      const rows = z
        .array(z.object({ id: z.number(), jobId: z.string(), itemKey: z.string(), createdAt: z.string() }))
        .parse(byTime.all(keyset.at, keyset.at, keyset.id));
      keyset.seen.push(...rows.map(key));
      const last = rows.at(-1);
      if (last) Object.assign(keyset, { at: last.createdAt, id: last.id });
      const page = z.array(z.object({ jobId: z.string(), itemKey: z.string() })).parse(byOffset.all(offset.n));
      offset.seen.push(...page.map(key));
      offset.n += page.length;
    },
  };
}

describe("GET /api/results under concurrent commits", () => {
  it("a reader resuming from its cursor sees every row exactly once", { timeout: 120_000 }, async () => {
    const writing = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(`writer-${w}`)));
    let done = false;
    void writing.finally(() => (done = true)).catch(() => undefined);
    const sql = new Database(t.file, { readonly: true });
    const wrong = wrongReaders(sql);
    const seen: string[] = [];
    let cursor = "";
    let pages = 0;
    let caughtUpWhileWriting = 0;
    const started = Date.now();
    let stopped = false;
    for (;;) {
      // A loaded machine slows the reader, not the writers' pace: they write until it has raced them.
      if (
        !stopped &&
        Date.now() - started >= WRITE_MS &&
        (caughtUpWhileWriting >= TAIL_REACHED || Date.now() - started > 60_000)
      ) {
        writeFileSync(stopFile(), "");
        stopped = true;
      }
      const finished = done; // read before the request: only a page fetched after the writers ended may end the walk
      const res = await fetch(`${tally.url}/api/results?limit=${LIMIT}${cursor ? `&after=${cursor}` : ""}`, {
        headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` },
      });
      expect(res.status).toBe(200);
      const page = feedPage.parse(await res.json());
      seen.push(...page.items.map(key));
      cursor = page.nextCursor;
      pages++;
      // A broken feed that repeats itself must fail here, not run into the test's timeout.
      if (seen.length > 100_000)
        throw new Error(
          `the feed does not end: ${pages} pages, ${seen.length} rows seen, ${new Set(seen).size} distinct`,
        );
      wrong.step();
      if (!page.hasMore) {
        if (finished) break;
        caughtUpWhileWriting++;
        await new Promise((r) => setTimeout(r, 3));
      }
    }
    const counts = await writing;
    for (let i = 0; i < 5; i++) wrong.step(); // let the wrong readers reach the end too
    const all = z
      .array(z.object({ jobId: z.string(), itemKey: z.string() }))
      .parse(sql.prepare(`SELECT jobId, itemKey FROM "Result" ORDER BY id`).all())
      .map(key);
    sql.close();

    const total = counts.reduce((a, b) => a + b, 0);
    expect(all).toHaveLength(total);
    expect(seen).toHaveLength(total); // nothing repeated...
    expect(new Set(seen)).toEqual(new Set(all)); // ...and nothing skipped
    expect(seen).toEqual(all); // in commit order
    // The reader really raced the writers: it reached the tail many times while they committed.
    expect(pages).toBeGreaterThan(50);
    expect(caughtUpWhileWriting).toBeGreaterThanOrEqual(TAIL_REACHED);
    // A createdAt keyset skips late commits; an OFFSET over createdAt repeats rows when one lands earlier.
    const missedByTime = all.length - new Set(wrong.keyset.seen).size;
    const offsetWrong =
      all.length - new Set(wrong.offset.seen).size + (wrong.offset.seen.length - new Set(wrong.offset.seen).size);
    console.log(
      `feed: ${total} rows by ${WRITERS} writers, ${pages} pages, tail reached ${caughtUpWhileWriting} times while writing; createdAt keyset missed ${missedByTime}; createdAt offset missed or repeated ${offsetWrong}`,
    );
    // How often the wrong readers trip depends on the machine's timing (a loaded one pages slowly
    // and may see none): the figures above say it; the next test shows the skip deterministically.
  });

  it("a row committed after a later-stamped one is still served, where a createdAt cursor skips it", async () => {
    const sql = new Database(t.file);
    const insert = sql.prepare(
      `INSERT INTO "Result" ("jobId","itemKey","url","status","format","markdown","tokensCharged","createdAt")
       VALUES ('writer-0', ?, NULL, 'completed', 'markdown', 'late', 1, ?)`,
    );
    const stamp = (d: Date) => d.toISOString().replace("Z", "+00:00");
    const later = new Date(Date.now() + 60_000);
    const earlier = new Date(Date.now() + 30_000);
    const page = async (after: string) => {
      const res = await fetch(`${tally.url}/api/results?limit=1000${after ? `&after=${after}` : ""}`, {
        headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` },
      });
      expect(res.status).toBe(200);
      return feedPage.parse(await res.json());
    };
    let cursor = "";
    for (let p = await page(""); ; p = await page(cursor)) {
      cursor = p.nextCursor;
      if (!p.hasMore) break;
    }
    const wrong = wrongReaders(sql);
    for (let i = 0; i < 1000 && wrong.keyset.seen.length < 100_000; i++) {
      const before = wrong.keyset.seen.length;
      wrong.step();
      if (wrong.keyset.seen.length === before) break;
    }
    // The worker's order of events: a page stamped `earlier` is taken, another writer commits a row
    // stamped `later`, both readers reach it, and only then does the `earlier` row commit.
    insert.run("late-stamp-first", stamp(later));
    expect((await page(cursor)).items.map(key)).toEqual(["writer-0/late-stamp-first"]);
    cursor = (await page(cursor)).nextCursor;
    wrong.step();
    expect(wrong.keyset.seen.at(-1)).toBe("writer-0/late-stamp-first");
    insert.run("early-stamp-last", stamp(earlier));
    expect((await page(cursor)).items.map(key)).toEqual(["writer-0/early-stamp-last"]);
    wrong.step();
    expect(wrong.keyset.seen).not.toContain("writer-0/early-stamp-last");
    sql.close();
  });
});
