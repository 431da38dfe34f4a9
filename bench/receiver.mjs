// npm run bench:receiver — signed deliveries at 32 connections (10% duplicates, 5% bad signatures)
// against `next start` and against the same receiver logic on bare node:http, each on a fresh
// database; then checks that every unique good delivery has exactly one receipt and one queue item.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

const N = Number(process.env.BENCH_N ?? 5000);
const CONC = Number(process.env.BENCH_CONCURRENCY ?? 32);
const SECRET = "whsec_bench_secret_0123456789";

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

function freshDb() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tally-bench-"));
  const file = path.join(dir, "tally.db");
  execFileSync("npx", ["prisma", "migrate", "deploy"], { env: { ...process.env, DATABASE_URL: `file:${file}` }, stdio: "pipe" });
  const sql = new Database(file);
  sql.prepare(
    `INSERT INTO Subscription (id, eventType, url, isActive, scheme, secret, createdAt, updatedAt)
     VALUES ('bench', 'extract_completed', 'http://127.0.0.1/webhooks/geonode/bench', 1, 'hmac', ?, datetime('now'), datetime('now'))`,
  ).run(SECRET);
  sql.close();
  return { dir, file };
}

async function waitUp(url) {
  for (let i = 0; i < 200; i++) {
    try {
      const r = await fetch(url, { method: "POST", body: "{}" });
      if (r.status > 0) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} did not start`);
}

function load(url, ids, n) {
  const out = execFileSync(process.execPath, ["bench/load.mjs", "--url", url, "--secret", SECRET, "--n", String(n), "--concurrency", String(CONC), "--ids", ids], { encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop());
}

function check(file, idsFile, warmFile) {
  const ids = JSON.parse(readFileSync(idsFile, "utf8"));
  const warm = JSON.parse(readFileSync(warmFile, "utf8")).length;
  const sql = new Database(file, { readonly: true });
  const receipts = sql.prepare("SELECT COUNT(*) n FROM Receipt").get().n;
  const items = sql.prepare("SELECT COUNT(*) n FROM QueueItem").get().n;
  const one = sql.prepare("SELECT (SELECT COUNT(*) FROM Receipt WHERE jobId = ?) r, (SELECT COUNT(*) FROM QueueItem WHERE jobId = ?) q");
  let missing = 0;
  for (const id of ids) {
    const { r, q } = one.get(id, id);
    if (r !== 1 || q !== 1) missing++;
  }
  sql.close();
  // the warm-up's deliveries are in the same database: take them out of the totals
  return {
    unique_good: ids.length,
    receipts: receipts - warm,
    queue_items: items - warm,
    lost_or_doubled: missing + Math.abs(receipts - warm - ids.length) + Math.abs(items - warm - ids.length),
  };
}

async function run(name, start) {
  const { dir, file } = freshDb();
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: `file:${file}`,
    PORT: String(port),
    GEONODE_SCRAPER_API_KEY: "bench",
    SCRAPER_API_BASE_URL: "http://127.0.0.1:9",
    TALLY_OPERATOR_PASSWORD: "bench-password",
    TALLY_WORKER: "off",
    TALLY_RECONCILE_INTERVAL_MINUTES: "0",
    TALLY_LOG_LEVEL: "error",
  };
  const child = start(port, env);
  const url = `http://127.0.0.1:${port}/webhooks/geonode/bench`;
  try {
    await waitUp(url);
    const warm = path.join(dir, "warm.json");
    load(url, warm, 300); // warm-up: JIT, caches, first compile
    const ids = path.join(dir, "ids.json");
    const r = load(url, ids, N);
    return { name, ...r, ...check(file, ids, warm) };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!existsSync(".next/BUILD_ID")) execFileSync("npx", ["next", "build"], { stdio: "inherit" });
const rows = [];
rows.push(await run("Tally receiver (next start)", (port, env) => spawn("node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1"], { env, stdio: "ignore" })));
rows.push(await run("npm run receiver (bare node:http)", (port, env) => spawn("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/receiver.ts", String(port)], { env, stdio: "ignore" })));

console.log(`\nReceiver benchmark: ${N} signed deliveries, ${CONC} connections, 10% duplicates, 5% bad signatures (${os.cpus().length} cores, Node ${process.version})\n`);
console.log("| receiver | deliveries/s | p50 ms | p99 ms | answers | unique good | receipts | queue items | lost or doubled |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  const answers = Object.entries(r.statuses).map(([k, v]) => `${k}:${v}`).join(" ");
  console.log(`| ${r.name} | ${r.rps} | ${r.p50_ms} | ${r.p99_ms} | ${answers} | ${r.unique_good} | ${r.receipts} | ${r.queue_items} | ${r.lost_or_doubled} |`);
}
// `npm run bench` (bench/index.ts) reads the rows from here for its one table.
if (process.env.BENCH_RESULT_FILE) writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify({ part: "receiver", n: N, concurrency: CONC, rows }));
if (rows.some((r) => r.lost_or_doubled !== 0 || r.errors > 0)) {
  console.error("\nDeliveries were lost or doubled, or requests failed.");
  process.exit(1);
}
