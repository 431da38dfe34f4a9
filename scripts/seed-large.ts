// npm run seed:large -- [--jobs 1000000] [--deliveries 5000000] [--platform N] [--pages N] [--seed N] [--force]
// A large Tally database for the dashboard benchmarks: a million jobs over 30 days with their
// receipts, queue items, dead letters and a sample of results (page bodies of 20–200 KB in the body
// store, beside the database or at TALLY_BODY_STORE: --pages distinct ones); five million inbound delivery rows
// over 14 days; the platform delivery mirror; operation runs. Written with raw prepared statements
// in big transactions (WAL, synchronous=OFF while loading: a crash means seeding again, nothing
// more). Into DATABASE_URL, or a new file under the temp folder; never ./data/tally.db without --force.
import { spawnSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { z } from "zod";
import { seedInbound, seedPlatform, seedSubscriptions } from "./seed-large/deliveries";
import { keepSeedPages, seedPages } from "./seed-large/bodies";
import { seedJobs, type SeedCtx } from "./seed-large/jobs";
import { seedRuns } from "./seed-large/runs";

const USAGE =
  "npm run seed:large -- [--jobs 1000000] [--deliveries 5000000] [--platform N] [--pages N] [--seed N] [--force]";

function fail(message: string): never {
  console.error(`seed:large: ${message}\nusage: ${USAGE}`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    jobs: { type: "string", default: "1000000" },
    deliveries: { type: "string", default: "5000000" },
    platform: { type: "string" },
    pages: { type: "string" },
    seed: { type: "string" },
    force: { type: "boolean", default: false },
  },
  strict: true,
});
const count = (name: string, raw: string | undefined, min: number) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) fail(`--${name} must be a whole number >= ${min}, got ${raw}`);
  return n;
};
const jobs = count("jobs", values.jobs, 1);
const deliveries = count("deliveries", values.deliveries, 0);
const platform = values.platform === undefined ? Math.round(deliveries / 10) : count("platform", values.platform, 0);
const seed = values.seed === undefined ? randomInt(2 ** 31) : count("seed", values.seed, 0);
// Distinct page bodies: about one per 250 jobs (the sampled results name each a few times, as daily
// fetches of mostly unchanged pages do), at most 2,000.
const pageCount =
  values.pages === undefined ? Math.max(1, Math.min(2_000, Math.ceil(jobs / 250))) : count("pages", values.pages, 1);

const url =
  process.env.DATABASE_URL ?? `file:${path.join(mkdtempSync(path.join(os.tmpdir(), "tally-large-")), "tally.db")}`;
if (!url.startsWith("file:")) fail(`DATABASE_URL must be a SQLite file: URL, got ${url}`);
const file = path.resolve(url.replace(/^file:/, ""));
const bodiesUrl = process.env.TALLY_BODY_STORE ?? `file:${path.join(path.dirname(file), "bodies")}`;
if (file === path.resolve("data/tally.db") && !values.force)
  fail(`refusing to fill ${file} (the app's own database); pass --force if you mean it`);

// A new database is built under a temporary name with its secondary indexes dropped, then indexed in
// one sorted pass each (about 3x faster than maintaining them row by row) and renamed into place:
// an interrupted run leaves only the .partial file, never a database missing its indexes.
// An existing database is appended to in place, indexes kept.
const fresh = !existsSync(file);
const target = fresh ? `${file}.partial` : file;
mkdirSync(path.dirname(file), { recursive: true });
// A .partial written to in the last two minutes belongs to a seed that is still running.
if (fresh && existsSync(target) && Date.now() - statSync(target).mtimeMs < 120_000)
  fail(`${target} is being written by another seed:large; wait for it`);
for (const suffix of fresh ? ["", "-wal", "-shm"] : []) rmSync(target + suffix, { force: true });
const migrate = spawnSync("npx", ["prisma", "migrate", "deploy"], {
  env: { ...process.env, DATABASE_URL: `file:${target}` },
  encoding: "utf8",
});
if (migrate.status !== 0) fail(`migration failed:\n${migrate.stdout}\n${migrate.stderr}`);

const db = new Database(target);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = OFF");
db.pragma("cache_size = -1000000"); // ~1 GB of page cache: the random-order id indexes stay in memory
db.pragma("temp_store = MEMORY");
const indexSchema = z.array(z.object({ name: z.string(), sql: z.string() }));
const indexes = fresh
  ? indexSchema.parse(db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`).all())
  : [];
for (const i of indexes) db.exec(`DROP INDEX "${i.name}"`);
const pagesStarted = performance.now();
const pages = seedPages(pageCount, seed);
console.log(
  `page bodies            ${pageCount.toLocaleString("en-US")} distinct pages generated in ${((performance.now() - pagesStarted) / 1000).toFixed(1)} s`,
);
const ctx: SeedCtx = {
  db,
  salt: [seed, Math.imul(seed, 0x9e3779b1) >>> 0],
  now: Date.now(),
  chunk: 50_000,
  pages,
};

const rows: Array<{ phase: string; tables: Record<string, number>; seconds: number }> = [];
function phase<T>(name: string, work: () => T, tablesOf: (out: T) => Record<string, number>): T {
  const t0 = performance.now();
  const out = work();
  const tables = tablesOf(out);
  const seconds = (performance.now() - t0) / 1000;
  rows.push({ phase: name, tables, seconds });
  const n = Object.values(tables).reduce((a, b) => a + b, 0);
  const rate =
    n === 0
      ? ""
      : `${n.toLocaleString("en-US").padStart(11)} rows  ${seconds.toFixed(1).padStart(6)} s  ${Math.round(n / seconds)
          .toLocaleString("en-US")
          .padStart(9)} rows/s`;
  console.log(`${name.padEnd(22)} ${rate || `${" ".repeat(17)}${seconds.toFixed(1).padStart(6)} s`}`);
  return out;
}
const same = (t: Record<string, number>) => t;

console.log(
  `Seeding ${file}\n  ${jobs.toLocaleString("en-US")} jobs, ${deliveries.toLocaleString("en-US")} inbound deliveries, ${platform.toLocaleString("en-US")} platform deliveries, seed ${seed}\n`,
);
const started = performance.now();
phase("subscriptions", () => seedSubscriptions(ctx), same);
const seeded = phase(
  "jobs (+ receipts…)",
  () => seedJobs(ctx, jobs),
  (s) => s.counts,
);
phase("inbound deliveries", () => ({ InboundDelivery: seedInbound(ctx, seeded, deliveries) }), same);
phase("platform deliveries", () => ({ PlatformDelivery: seedPlatform(ctx, seeded, platform) }), same);
phase("operation runs", () => seedRuns(ctx), same);
if (fresh) {
  phase(
    "indexes",
    () => {
      for (const i of indexes) db.exec(i.sql);
      return { indexes: indexes.length };
    },
    () => ({}),
  );
}
db.pragma("wal_checkpoint(TRUNCATE)");
db.pragma("synchronous = NORMAL");
db.close();

// The bodies go into the store before the database is usable under its name: it never names a body
// that is not there (an existing database was appended to in place: a crash here is a seed again).
keepSeedPages(pages, bodiesUrl)
  .then((kept) => finish(kept))
  .catch((err: unknown) => {
    console.error(`seed:large: the page bodies could not be stored: ${String(err)}`);
    process.exit(1);
  });

function finish(kept: { objects: number; storedBytes: number }) {
  if (fresh) renameSync(target, file);

  const total = rows.reduce((s, r) => s + Object.values(r.tables).reduce((a, b) => a + b, 0), 0);
  const seconds = (performance.now() - started) / 1000;
  const tables = Object.assign({}, ...rows.map((r) => r.tables));
  console.log(
    `\n${total.toLocaleString("en-US")} rows in ${seconds.toFixed(1)} s: ${Math.round(total / seconds).toLocaleString("en-US")} rows/s (${os.cpus().length} cores, Node ${process.version})`,
  );
  console.log(
    Object.entries(tables)
      .map(([k, v]) => `  ${k}: ${Number(v).toLocaleString("en-US")}`)
      .join("\n"),
  );
  console.log(
    `  page bodies: ${kept.objects.toLocaleString("en-US")} objects, ${(kept.storedBytes / 1e6).toFixed(1)} MB as stored, in ${bodiesUrl}`,
  );
  console.log(
    `\n${(statSync(file).size / 1e9).toFixed(2)} GB. Use it with:\n  DATABASE_URL=file:${file} TALLY_BODY_STORE=${bodiesUrl}`,
  );
}
