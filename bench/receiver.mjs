// npm run bench:receiver — signed deliveries at 32 connections (10% duplicates, 5% bad signatures)
// against Tally's server as `npm start` runs it, against the receiver route under plain `next start`
// (what a Next-only deployment would get), and against the receiver alone (`npm run receiver`), each
// on a fresh database; then checks that every unique good delivery has exactly one receipt and one
// queue item. BENCH_BASELINE=path/to/seed-baseline.sh also runs the source article's receiver first
// (one run after the other, same machine) and prints Tally's ratio to it.
import { execFile, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { distDir, serverBundle } from "../scripts/server-bundle.mjs";

const N = Number(process.env.BENCH_N ?? 5000);
const CONC = Number(process.env.BENCH_CONCURRENCY ?? 32);
const SECRET = "whsec_bench_secret_0123456789";
const TOKEN = "bench-api-token-0123456789abcdef";
// Dashboard readers during the extra "under dashboard load" run of Tally's server (0: skip that run).
const READERS = Number(process.env.BENCH_DASHBOARD_READERS ?? 4);
const execFileAsync = promisify(execFile);

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

async function load(url, ids, n) {
  const { stdout } = await execFileAsync(process.execPath, ["bench/load.mjs", "--url", url, "--secret", SECRET, "--n", String(n), "--concurrency", String(CONC), "--ids", ids], { encoding: "utf8", maxBuffer: 64 << 20 });
  return JSON.parse(stdout.trim().split("\n").pop());
}

/** Operators reading the dashboard meanwhile: each reader loads the overview and the jobs page in turn. */
function readDashboard(base, readers) {
  let stop = false;
  let pages = 0;
  const paths = ["/", "/jobs", "/api/jobs?limit=50"];
  const reader = async (i) => {
    for (let k = i; !stop; k++) {
      const res = await fetch(base + paths[k % paths.length], { headers: { authorization: `Bearer ${TOKEN}` } });
      await res.arrayBuffer();
      if (res.ok) pages++;
    }
  };
  const all = Promise.all(Array.from({ length: readers }, (_, i) => reader(i)));
  return async () => {
    stop = true;
    await all;
    return pages;
  };
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

/** The source article's receiver through its own script, which checks its table; its JSON line is last. */
function baseline(script) {
  const out = execFileSync("bash", [script], { encoding: "utf8", env: { ...process.env, N: String(N), CONC: String(CONC) }, stdio: ["ignore", "pipe", "inherit"] });
  const lines = out.trim().split("\n");
  const r = JSON.parse(lines.pop());
  const passed = lines.some((l) => l.startsWith("DB check: PASS"));
  const errors = Object.values(r.transport_errors ?? {}).reduce((a, b) => a + b, 0);
  return {
    key: "article",
    name: "source article's FastAPI receiver",
    rps: Math.round(r.throughput_rps),
    p50_ms: Math.round(r.latency_ms.p50 * 10) / 10,
    p99_ms: Math.round(r.latency_ms.p99 * 10) / 10,
    statuses: r.status_counts ?? {},
    errors,
    unique_good: r.expected_accepted,
    receipts: passed ? "(its check passed)" : "(its check FAILED)",
    queue_items: "—",
    lost_or_doubled: passed ? 0 : 1,
  };
}

async function run(key, name, start, readers = 0) {
  const { dir, file } = freshDb();
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: `file:${file}`,
    PORT: String(port),
    GEONODE_SCRAPER_API_KEY: "bench",
    SCRAPER_API_BASE_URL: "http://127.0.0.1:9",
    TALLY_OPERATOR_PASSWORD: "bench-password",
    TALLY_API_TOKEN: TOKEN,
    TALLY_WORKER: "off",
    TALLY_RECONCILE_INTERVAL_MINUTES: "0",
    TALLY_LOG_LEVEL: "error",
  };
  const child = start(port, env);
  const url = `http://127.0.0.1:${port}/webhooks/geonode/bench`;
  try {
    await waitUp(url);
    const warm = path.join(dir, "warm.json");
    await load(url, warm, 300); // warm-up: JIT, caches, first compile
    const ids = path.join(dir, "ids.json");
    const stopReading = readers > 0 ? readDashboard(`http://127.0.0.1:${port}`, readers) : null;
    const r = await load(url, ids, N);
    const pages = stopReading ? await stopReading() : undefined;
    return { key, name: pages === undefined ? name : `${name} while ${readers} readers loaded ${pages} dashboard pages`, ...r, ...check(file, ids, warm) };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!existsSync(path.join(distDir, "BUILD_ID")) || !existsSync(serverBundle)) execFileSync("npm", ["run", "build"], { stdio: "inherit" });
const rows = [];
if (process.env.BENCH_BASELINE) rows.push(baseline(process.env.BENCH_BASELINE));
const tallyServer = (port, env) => spawn(process.execPath, [serverBundle], { env: { ...env, TALLY_HOST: "127.0.0.1" }, stdio: "ignore" });
rows.push(await run("tally", "Tally (npm start)", tallyServer));
if (READERS > 0) rows.push(await run("tally-busy", "Tally (npm start)", tallyServer, READERS));
rows.push(await run("next-route", "receiver route under next start", (port, env) => spawn("node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1"], { env, stdio: "ignore" })));
rows.push(await run("bare", "npm run receiver (bare node:http)", (port, env) => spawn("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/receiver.ts", String(port)], { env, stdio: "ignore" })));

console.log(`\nReceiver benchmark: ${N} signed deliveries, ${CONC} connections, 10% duplicates, 5% bad signatures (${os.cpus().length} cores, Node ${process.version})\n`);
console.log("| receiver | deliveries/s | p50 ms | p99 ms | answers | unique good | receipts | queue items | lost or doubled |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  const answers = Object.entries(r.statuses).map(([k, v]) => `${k}:${v}`).join(" ");
  console.log(`| ${r.name} | ${r.rps} | ${r.p50_ms} | ${r.p99_ms} | ${answers} | ${r.unique_good} | ${r.receipts} | ${r.queue_items} | ${r.lost_or_doubled} |`);
}
const article = rows.find((r) => r.key === "article");
const tally = rows.find((r) => r.key === "tally");
if (article && tally) {
  console.log(`\nTally ÷ the article's receiver: ${(tally.rps / article.rps).toFixed(2)}× the deliveries per second; p99 ${tally.p99_ms} ms against ${article.p99_ms} ms`);
}
// `npm run bench` (bench/index.ts) reads the rows from here for its one table.
if (process.env.BENCH_RESULT_FILE) writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify({ part: "receiver", n: N, concurrency: CONC, rows }));
if (rows.some((r) => r.lost_or_doubled !== 0 || r.errors > 0)) {
  console.error("\nDeliveries were lost or doubled, or requests failed.");
  process.exit(1);
}
