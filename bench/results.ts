// npm run bench:results -- [--results 200000] [--bytes 1500] [--keep]
// Seeds N results (crawl, batch and extract jobs, markdown of about --bytes characters each) into a
// temp database, then times the lib functions the pull routes call (no HTTP): the change feed paged
// to its end at limits 100 and 1000, and the CSV and JSONL exports read to their end, sampling the
// process's RSS while each export streams. Constant memory shows as the same growth for a quarter
// of the rows as for all of them.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { z } from "zod";
import { machine } from "./common";

const { values } = parseArgs({
  options: {
    results: { type: "string", default: "200000" },
    bytes: { type: "string", default: "1500" },
    keep: { type: "boolean", default: false },
  },
  strict: true,
});
const N = Number(values.results);
const BYTES = Number(values.bytes);
const say = (s: string) => process.stdout.write(`${s}\n`);
const fmt = (v: number, d = 0) => v.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
const mb = (b: number) => `${fmt(b / 2 ** 20, 1)} MB`;

const dir = mkdtempSync(path.join(os.tmpdir(), "tally-bench-results-"));
const file = path.join(dir, "tally.db");
// Set before the first getConfig(): the lib reads its database from the configuration.
process.env.DATABASE_URL = `file:${file}`;
process.env.TALLY_LOG_LEVEL ??= "error";

async function seed(): Promise<{ t0: number; span: number }> {
  execFileSync("npx", ["prisma", "migrate", "deploy"], { env: process.env, stdio: "pipe" });
  const { seedJob, seedResults } = await import("@/lib/results/seed.test-util");
  const sql = new Database(file);
  sql.pragma("journal_mode = WAL");
  const filler = 'Lorem ipsum, dolor "sit" amet; consectetur adipiscing elit.\n'
    .repeat(Math.ceil(BYTES / 60))
    .slice(0, BYTES);
  const t0 = Date.now() - 86_400_000;
  const span = 86_400_000;
  let done = 0;
  for (let j = 0; done < N; j++) {
    const kind = ["crawl", "batch", "extract"][j % 3];
    const count = Math.min(N - done, kind === "crawl" ? 200 : kind === "batch" ? 20 : 1);
    seedJob(sql, { id: `bench-${j}`, kind, url: `https://site-${j % 97}.example/`, createdAt: t0 });
    const first = done;
    seedResults(sql, {
      jobId: `bench-${j}`,
      count,
      at: (i) => t0 + ((first + i) * span) / N,
      markdown: (i) => `# Page ${first + i}\n\n${filler}`,
    });
    done += count;
  }
  sql.close();
  return { t0, span };
}

async function main(): Promise<void> {
  say(machine());
  const started = Date.now();
  const { t0, span } = await seed();
  say(
    `Seeded ${fmt(N)} results (markdown ~${fmt(BYTES)} characters each) in ${fmt((Date.now() - started) / 1000, 1)} s into ${file}\n`,
  );
  const { feedQuerySchema, exportQuerySchema } = await import("@/lib/results/contracts");
  const { readFeed } = await import("@/lib/results/feed");
  const { exportResults } = await import("@/lib/results/export");
  const { dbReady, disconnectAll } = await import("@/lib/db");
  await dbReady();

  for (const limit of [100, 1000]) {
    let after: string | undefined;
    let rows = 0;
    let pages = 0;
    const t = performance.now();
    for (;;) {
      const page = await readFeed(feedQuerySchema.parse({ limit, after }));
      rows += page.items.length;
      pages++;
      after = page.nextCursor;
      if (!page.hasMore) break;
    }
    const s = (performance.now() - t) / 1000;
    say(
      `feed, limit ${limit}: ${fmt(rows)} rows in ${fmt(pages)} pages, ${fmt(s, 1)} s: ${fmt(pages / s)} pages/s, ${fmt(rows / s)} rows/s`,
    );
    if (rows !== N) throw new Error(`feed saw ${rows} rows, expected ${N}`);
  }

  // globalThis.gc exists when node runs with --expose-gc (the npm script passes it): the heap after
  // a collection is the memory the export really holds, where RSS also keeps what V8 has not returned.
  const gc = z.function().optional().parse(Reflect.get(globalThis, "gc"));
  const cases: Array<[string, number, Record<string, string>]> = [
    [
      "csv, a quarter (since/until)",
      N / 4,
      { format: "csv", since: new Date(t0).toISOString(), until: new Date(t0 + span / 4).toISOString() },
    ],
    ["csv, all", N, { format: "csv" }],
    ["jsonl, all", N, { format: "jsonl" }],
  ];
  for (const [name, rows, query] of cases) {
    gc?.();
    const base = process.memoryUsage();
    let peakRss = base.rss;
    let peakHeap = base.heapUsed;
    let bytes = 0;
    let chunks = 0;
    const t = performance.now();
    const reader = exportResults(exportQuerySchema.parse(query)).body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      if (gc && ++chunks % 10 === 0) {
        gc();
        peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      }
    }
    const s = (performance.now() - t) / 1000;
    const heap = gc ? `, live heap growth ${mb(peakHeap - base.heapUsed)} (after GC every 10 pages)` : "";
    say(
      `export ${name}: ${fmt(rows)} rows, ${mb(bytes)} in ${fmt(s, 1)} s: ${fmt(rows / s)} rows/s; RSS ${mb(base.rss)} before, peak RSS growth ${mb(peakRss - base.rss)}${heap}`,
    );
  }
  await disconnectAll();
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  });
