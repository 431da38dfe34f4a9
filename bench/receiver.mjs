// npm run bench:receiver — signed deliveries at 32 connections (10% duplicates, 5% bad signatures)
// against Tally's server as `npm start` runs it, against the receiver route under plain `next start`
// (what a Next-only deployment would get), and against the receiver alone (`npm run receiver`), each
// on a fresh database; then checks that every unique good delivery has exactly one receipt and one
// queue item. BENCH_BASELINE=path/to/seed-baseline.sh also runs the source article's receiver first
// (one run after the other, same machine) and prints Tally's ratio to it. When a PostgreSQL server
// answers at BENCH_POSTGRES_URL (default the local one), Tally's server also runs on PostgreSQL: one
// server, then two servers on one database behind the load generator's round robin.
//
// Tracing (issue 41): Tally's server on SQLite with OpenTelemetry tracing off and on (exporting every
// receipt's span to a collector of this script's own over OTLP/HTTP), alternated BENCH_TRACING_ROUNDS
// times (default 2) in the same run, with a run exporting protobuf and one keeping 10% of traces; prints the
// figures, their ratio to off and each round's own ratios. BENCH_ONLY=tracing runs that
// part alone.
import { execFile, execFileSync, spawn } from "node:child_process";
import crypto from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
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

const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const pgUrl = (database) => Object.assign(new URL(POSTGRES_URL), { pathname: `/${database}` }).toString();

async function pgAdmin(sql) {
  const c = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

const SUBSCRIPTION = `INSERT INTO "Subscription" ("id","eventType","url","isActive","scheme","secret","createdAt","updatedAt")
  VALUES ('bench', 'extract_completed', 'http://127.0.0.1/webhooks/geonode/bench', true, 'hmac', $1, now(), now())`;

/** A fresh migrated database with the bench subscription: a SQLite file, or a PostgreSQL database. */
async function freshDb(store) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tally-bench-"));
  if (store === "postgres") {
    const name = `tally_bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    await pgAdmin(`CREATE DATABASE "${name}"`);
    const url = pgUrl(name);
    execFileSync("npx", ["prisma", "migrate", "deploy"], { env: { ...process.env, DATABASE_URL: url }, stdio: "pipe" });
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(SUBSCRIPTION, [SECRET]);
    await c.end();
    return { dir, url, drop: () => pgAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
  }
  const file = path.join(dir, "tally.db");
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: `file:${file}` },
    stdio: "pipe",
  });
  const sql = new Database(file);
  sql
    .prepare(SUBSCRIPTION.replace(", true,", ", 1,").replace(/\$1/, "?").replaceAll("now()", "datetime('now')"))
    .run(SECRET);
  sql.close();
  return { dir, url: `file:${file}`, file, drop: async () => {} };
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
  const { stdout } = await execFileAsync(
    process.execPath,
    ["bench/load.mjs", "--url", url, "--secret", SECRET, "--n", String(n), "--concurrency", String(CONC), "--ids", ids],
    { encoding: "utf8", maxBuffer: 64 << 20 },
  );
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

/** Per job id: how many receipts and queue items it has (every job id, good or not). */
async function countsPerJob(db) {
  const sql = `SELECT "jobId" AS id, COUNT(*) AS n FROM "Receipt" GROUP BY "jobId"`;
  const sqlItems = `SELECT "jobId" AS id, COUNT(*) AS n FROM "QueueItem" GROUP BY "jobId"`;
  if (db.file) {
    const conn = new Database(db.file, { readonly: true });
    const out = { receipts: conn.prepare(sql).all(), items: conn.prepare(sqlItems).all() };
    conn.close();
    return out;
  }
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  const out = { receipts: (await c.query(sql)).rows, items: (await c.query(sqlItems)).rows };
  await c.end();
  return out;
}

async function check(db, idsFile, warmFile) {
  const ids = JSON.parse(readFileSync(idsFile, "utf8"));
  const warm = JSON.parse(readFileSync(warmFile, "utf8")).length;
  const counts = await countsPerJob(db);
  const perJob = (rows) => new Map(rows.map((r) => [r.id, Number(r.n)]));
  const r = perJob(counts.receipts);
  const q = perJob(counts.items);
  const receipts = [...r.values()].reduce((a, b) => a + b, 0);
  const items = [...q.values()].reduce((a, b) => a + b, 0);
  let missing = 0;
  for (const id of ids) if (r.get(id) !== 1 || q.get(id) !== 1) missing++;
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
  const out = execFileSync("bash", [script], {
    encoding: "utf8",
    env: { ...process.env, N: String(N), CONC: String(CONC) },
    stdio: ["ignore", "pipe", "inherit"],
  });
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

/** Spans in an OTLP/protobuf export: ExportTraceServiceRequest.resource_spans(1).scope_spans(2).spans(2). */
function protobufSpans(buf) {
  // Length-delimited fields with number `no` in buf[start, end): their [start, end) ranges.
  const fieldsOf = (no, start, end) => {
    const out = [];
    let i = start;
    const varint = () => {
      let v = 0;
      for (let mul = 1; ; mul *= 128) {
        const b = buf[i++];
        v += (b & 0x7f) * mul;
        if (b < 0x80) return v;
      }
    };
    while (i < end) {
      const tag = varint();
      const wire = tag & 7;
      if (wire === 0) varint();
      else if (wire === 1) i += 8;
      else if (wire === 5) i += 4;
      else {
        const n = varint();
        if (tag >>> 3 === no) out.push([i, i + n]);
        i += n;
      }
    }
    return out;
  };
  let n = 0;
  for (const [a, b] of fieldsOf(1, 0, buf.length))
    for (const [c, d] of fieldsOf(2, a, b)) n += fieldsOf(2, c, d).length;
  return n;
}

/** An OTLP/HTTP collector that counts the spans it is sent (JSON: the spanId keys; protobuf: decoded). */
async function startCollector() {
  let spans = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.headers["content-type"] === "application/x-protobuf") {
        spans += protobufSpans(body);
        return void res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      }
      spans += (body.toString("utf8").match(/"spanId"/g) ?? []).length;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    spans: () => spans,
    reset: () => (spans = 0),
    close: () => new Promise((r) => server.close(r)),
  };
}

/** A child's CPU time so far (user + system, ms) from /proc; NaN where there is no /proc. */
function cpuMs(child) {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

async function run(key, name, start, { readers = 0, store = "sqlite", servers = 1, extraEnv = {} } = {}) {
  const db = await freshDb(store);
  const { dir } = db;
  const ports = await Promise.all(Array.from({ length: servers }, () => freePort()));
  const env = {
    ...process.env,
    DATABASE_URL: db.url,
    GEONODE_SCRAPER_API_KEY: "bench",
    SCRAPER_API_BASE_URL: "http://127.0.0.1:9",
    TALLY_OPERATOR_PASSWORD: "bench-password",
    TALLY_API_TOKEN: TOKEN,
    TALLY_WORKER: "off",
    TALLY_RECONCILE_INTERVAL_MINUTES: "0",
    TALLY_LOG_LEVEL: "error",
    ...extraEnv,
  };
  const children = ports.map((port) => start(port, { ...env, PORT: String(port) }));
  const urls = ports.map((port) => `http://127.0.0.1:${port}/webhooks/geonode/bench`);
  const url = urls.join(",");
  try {
    for (const u of urls) await waitUp(u);
    const warm = path.join(dir, "warm.json");
    await load(url, warm, 300); // warm-up: JIT, caches, first compile
    const ids = path.join(dir, "ids.json");
    const stopReading = readers > 0 ? readDashboard(`http://127.0.0.1:${ports[0]}`, readers) : null;
    const cpuBefore = children.map(cpuMs);
    const r = await load(url, ids, N);
    // The servers' own CPU time over the measured load: unlike deliveries/s, other work on the machine
    // hardly moves it (the tracing figures compare it per delivery).
    const cpu_ms = children.reduce((sum, child, i) => sum + cpuMs(child) - cpuBefore[i], 0);
    const pages = stopReading ? await stopReading() : undefined;
    return {
      key,
      name: pages === undefined ? name : `${name} while ${readers} readers loaded ${pages} dashboard pages`,
      ...r,
      cpu_ms,
      ...(await check(db, ids, warm)),
    };
  } finally {
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(
      children.map((child) => new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)))),
    );
    rmSync(dir, { recursive: true, force: true });
    await db.drop();
  }
}

if (!existsSync(path.join(distDir, "BUILD_ID")) || !existsSync(serverBundle))
  execFileSync("npm", ["run", "build"], { stdio: "inherit" });
const rows = [];
const tallyServer = (port, env) =>
  spawn(process.execPath, [serverBundle], { env: { ...env, TALLY_HOST: "127.0.0.1" }, stdio: "ignore" });
const ONLY = process.env.BENCH_ONLY;
if (ONLY !== undefined && ONLY !== "tracing") throw new Error(`BENCH_ONLY: only "tracing" is known (got ${ONLY})`);

// Tracing off and on, alternated in the same run (each run on a fresh database), so both see the same machine.
const ROUNDS = Number(process.env.BENCH_TRACING_ROUNDS ?? 2);
const traced = { off: [], on: [], protobuf: [], sampled: [] };
if (ROUNDS > 0) {
  const collector = await startCollector();
  for (let round = 1; round <= ROUNDS; round++) {
    traced.off.push(
      await run(`tracing-off-${round}`, `Tally (npm start), SQLite, tracing off (round ${round})`, tallyServer),
    );
    collector.reset();
    const on = await run(`tracing-on-${round}`, `Tally (npm start), SQLite, tracing on (round ${round})`, tallyServer, {
      extraEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_MAX_QUEUE_SIZE: "8192" },
    });
    // The server's last batch goes out when it stops (SIGTERM), before run() returns.
    on.spans = collector.spans();
    traced.on.push(on);
    // On, every span kept, sent as OTLP/protobuf (smaller, and cheaper to encode than JSON).
    collector.reset();
    const proto = await run(
      `tracing-protobuf-${round}`,
      `Tally (npm start), SQLite, tracing on, protobuf (round ${round})`,
      tallyServer,
      {
        extraEnv: {
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_BSP_MAX_QUEUE_SIZE: "8192",
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
        },
      },
    );
    proto.spans = collector.spans();
    traced.protobuf.push(proto);
    // On, keeping one new trace in ten (the standard ratio sampler): what a busy deployment would run.
    collector.reset();
    const sampled = await run(
      `tracing-sampled-${round}`,
      `Tally (npm start), SQLite, tracing on, 10% sampled (round ${round})`,
      tallyServer,
      {
        extraEnv: {
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
          OTEL_TRACES_SAMPLER_ARG: "0.1",
        },
      },
    );
    sampled.spans = collector.spans();
    traced.sampled.push(sampled);
  }
  await collector.close();
  rows.push(...traced.off, ...traced.on, ...traced.protobuf, ...traced.sampled);
}
if (ONLY === undefined) {
  if (process.env.BENCH_BASELINE) rows.unshift(baseline(process.env.BENCH_BASELINE));
  rows.push(await run("tally", "Tally (npm start), SQLite", tallyServer));
  const postgres = await pgAdmin("SELECT 1").then(
    () => true,
    () => false,
  );
  if (postgres) {
    rows.push(await run("tally-pg", "Tally (npm start), PostgreSQL", tallyServer, { store: "postgres" }));
    rows.push(
      await run("tally-pg-2", "Tally (npm start) ×2, one PostgreSQL, round robin", tallyServer, {
        store: "postgres",
        servers: 2,
      }),
    );
  } else {
    console.error(`No PostgreSQL at ${POSTGRES_URL.replace(/:[^:@/]*@/, ":***@")}: the PostgreSQL rows are skipped.`);
  }
  if (READERS > 0) rows.push(await run("tally-busy", "Tally (npm start), SQLite", tallyServer, { readers: READERS }));
  rows.push(
    await run("next-route", "receiver route under next start", (port, env) =>
      spawn("node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1"], { env, stdio: "ignore" }),
    ),
  );
  rows.push(
    await run("bare", "npm run receiver (bare node:http)", (port, env) =>
      spawn("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/receiver.ts", String(port)], {
        env,
        stdio: "ignore",
      }),
    ),
  );
}

console.log(
  `\nReceiver benchmark: ${N} signed deliveries, ${CONC} connections, 10% duplicates, 5% bad signatures (${os.cpus().length} cores, Node ${process.version})\n`,
);
console.log(
  "| receiver | deliveries/s | p50 ms | p99 ms | answers | unique good | receipts | queue items | lost or doubled |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  const answers = Object.entries(r.statuses)
    .map(([k, v]) => `${k}:${v}`)
    .join(" ");
  console.log(
    `| ${r.name} | ${r.rps} | ${r.p50_ms} | ${r.p99_ms} | ${answers} | ${r.unique_good} | ${r.receipts} | ${r.queue_items} | ${r.lost_or_doubled} |`,
  );
}
if (ROUNDS > 0) {
  const mean = (rs, k) => rs.reduce((a, r) => a + r[k], 0) / rs.length;
  const off = mean(traced.off, "rps");
  const on = mean(traced.on, "rps");
  const sampled = mean(traced.sampled, "rps");
  console.log(
    `\nTracing (SQLite, ${ROUNDS} rounds alternated): off ${Math.round(off)} deliveries/s (p99 ${mean(traced.off, "p99_ms").toFixed(1)} ms), ` +
      `on ${Math.round(on)} deliveries/s (p99 ${mean(traced.on, "p99_ms").toFixed(1)} ms): on ÷ off ${(on / off).toFixed(2)}×; ` +
      `spans received per run with tracing on: ${traced.on.map((r) => r.spans).join(", ")}`,
  );
  const protobuf = mean(traced.protobuf, "rps");
  console.log(
    `Tracing on, protobuf: ${Math.round(protobuf)} deliveries/s (p99 ${mean(traced.protobuf, "p99_ms").toFixed(1)} ms): ` +
      `${(protobuf / off).toFixed(2)}× off; spans received: ${traced.protobuf.map((r) => r.spans).join(", ")}`,
  );
  // Pair by pair (each "on" beside the "off" run just before it): the machine's load drifts between rounds.
  const pairs = (k) => traced[k].map((r, i) => (r.rps / traced.off[i].rps).toFixed(2)).join(", ");
  console.log(
    `Per round, ÷ that round's off: on ${pairs("on")}; protobuf ${pairs("protobuf")}; 10% sampled ${pairs("sampled")}`,
  );
  // Server CPU per delivery, off ÷ on, round by round: the throughput a CPU-bound server keeps.
  const perDelivery = (r) => r.cpu_ms / N;
  const cpuPairs = (k) => traced[k].map((r, i) => (perDelivery(traced.off[i]) / perDelivery(r)).toFixed(2)).join(", ");
  const cpuList = (k) => traced[k].map((r) => perDelivery(r).toFixed(3)).join(", ");
  console.log(
    `Server CPU ms a delivery: off ${cpuList("off")}; on ${cpuList("on")}; protobuf ${cpuList("protobuf")}; 10% sampled ${cpuList("sampled")}`,
  );
  console.log(
    `Per round, off's CPU a delivery ÷ this one's: on ${cpuPairs("on")}; protobuf ${cpuPairs("protobuf")}; 10% sampled ${cpuPairs("sampled")}`,
  );
  console.log(
    `Tracing on, 10% sampled: ${Math.round(sampled)} deliveries/s (p99 ${mean(traced.sampled, "p99_ms").toFixed(1)} ms): ` +
      `${(sampled / off).toFixed(2)}× off; spans received: ${traced.sampled.map((r) => r.spans).join(", ")}`,
  );
}
const article = rows.find((r) => r.key === "article");
const tally = rows.find((r) => r.key === "tally");
if (article && tally) {
  console.log(
    `\nTally ÷ the article's receiver: ${(tally.rps / article.rps).toFixed(2)}× the deliveries per second; p99 ${tally.p99_ms} ms against ${article.p99_ms} ms`,
  );
  for (const k of ["tally-pg", "tally-pg-2"]) {
    const r = rows.find((x) => x.key === k);
    if (r) console.log(`${r.name} ÷ the article's receiver: ${(r.rps / article.rps).toFixed(2)}×; p99 ${r.p99_ms} ms`);
  }
}
// `npm run bench` (bench/index.ts) reads the rows from here for its one table.
if (process.env.BENCH_RESULT_FILE)
  writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify({ part: "receiver", n: N, concurrency: CONC, rows }));
if (rows.some((r) => r.lost_or_doubled !== 0 || r.errors > 0)) {
  console.error("\nDeliveries were lost or doubled, or requests failed.");
  process.exit(1);
}
