// tsx --conditions=react-server bench/pipeline.ts [--jobs 10000] [--stores sqlite,postgres] [--no-floor] [--workers N] [--result FILE]
// The whole pipeline when the platform is not the limit (issue 28, part 3): the simulator fast (jobs of
// 50–200 ms, no faults), TALLY_API_RPS=1000, N extract jobs submitted to the simulator directly and
// delivered by webhook to one Tally server (`npm start`'s bundle). Tally's figures: jobs stored per
// second end to end (first submit → last stored, and first stored → last stored) and settled → stored
// p50/p95/p99 (the platform's completedAt to Tally's outcomeAt, one clock: the same machine).
// Beside it, in the same run, the store's own rate for the same writes: a bare loop on the store's
// driver (better-sqlite3 or pg, one connection), per job the receiver's transaction (receipt, queue
// item, delivery log row), the claim, and the worker's transaction (job row, result row, outcome,
// timeline entry, queue item done), one job after another, no HTTP, no queue, no platform.
// Needs `npm run build` (built on first use).
import { execFileSync, spawn } from "node:child_process";
import { setMaxListeners } from "node:events";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import {
  CHAOS_API_KEY,
  CHAOS_TOKEN,
  freePort,
  startSimulator,
  startTallyProcess,
  startWorkerProcess,
} from "../scripts/chaos/processes";
import { createChaosStore, type ChaosStore, type StoreKind } from "../scripts/chaos/store";
import { nodeSend } from "../lib/platform/send";
import { budgetCallsPerSecond } from "../lib/platform";
import { serverBundle } from "../scripts/server-bundle.mjs";
import { machine } from "./common";

const { values } = parseArgs({
  options: {
    jobs: { type: "string", default: "10000" },
    stores: { type: "string", default: "sqlite,postgres" },
    concurrency: { type: "string" },
    // Also N `npm run worker` processes, the server's own worker off (the scaled-out deployment).
    workers: { type: "string", default: "0" },
    result: { type: "string" },
    // The HTTP-only floor beside Tally (--no-floor to skip it).
    floor: { type: "boolean", default: true },
  },
  allowNegative: true,
  strict: true,
});
const N = Number(values.jobs);
const WORKERS = Number(values.workers);
const STORES = values.stores.split(",").map((s) => s.trim()) as StoreKind[];
const say = (s: string) => process.stdout.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (v: number, d = 0) => Math.round(v * 10 ** d) / 10 ** d;
const pct = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN);
/** A DateTime as either store keeps it: a Date (pg), epoch milliseconds or text (SQLite). */
const ms = (v: unknown) => (v instanceof Date ? v.getTime() : typeof v === "number" ? v : Date.parse(String(v)));

const SIM = {
  jobDurationMs: [50, 200],
  hostileShare: 0,
  retainJobs: 1_000_000,
  retainDeliveries: 1_000_000,
};
/** The issue's budget, and the highest TALLY_API_RPS Tally accepts. */
const API_RPS = 1000;
const MARKDOWN = `# A page\n\n${"Some text of a page, about a kilobyte in all. ".repeat(22)}`;

type TallyFigures = {
  jobs: number;
  submitSeconds: number;
  endToEndSeconds: number;
  jobsPerSecond: number;
  steadyJobsPerSecond: number;
  settledToStoredMs: { p50: number; p95: number; p99: number; max: number };
  settledToReceivedMs: { p50: number; p95: number };
  receivedToStoredMs: { p50: number; p95: number };
  /** The server's CPU time (user + system) from the first submit to the last outcome, per job. */
  serverCpuMsPerJob: number;
  /** The same for the simulator (its process tree) and for this bench process (submitting, polling). */
  simulatorCpuMsPerJob: number;
  benchCpuMsPerJob: number;
  /** With --workers: the share of Tally's CPU a job spent in the worker processes. */
  workersCpuMsPerJob?: number;
  /**
   * From the last submit to the last outcome (the drain, when the simulator only answers GETs): the cores
   * each side kept busy, and the machine's idle share of its cores (/proc/stat).
   */
  drain: { seconds: number; serverCores: number; workersCores: number; simulatorCores: number; machineIdle: number };
  /** Tally's calls to the platform a job (ApiCallMinute, written when its processes stop). */
  platformCallsPerJob: number;
};

/** A process's stat fields after its command's closing parenthesis (state, ppid, …), from /proc: Linux only. */
function statOf(pid: number | string): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  } catch {
    return null;
  }
}

/** A process's CPU time so far in ms (user + system): utime and stime are the 12th and 13th fields; NaN off Linux. */
function cpuMs(pid: number | undefined): number {
  const fields = pid === undefined ? null : statOf(pid);
  return fields ? ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 : NaN; // USER_HZ is 100 on Linux
}

/** The machine's CPU time so far in ticks, idle and in all (the first line of /proc/stat); zeros off Linux. */
function machineTicks(): { idle: number; total: number } {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    return { idle: fields[3]! + fields[4]!, total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return { idle: 0, total: 0 };
  }
}

/** The CPU time of a process and every process below it (the simulator runs under tsx's own process). */
function treeCpuMs(root: number | undefined): number {
  if (root === undefined) return NaN;
  let children: Map<number, number[]>;
  try {
    children = new Map();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const ppid = Number(statOf(entry)?.[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    }
  } catch {
    return NaN;
  }
  let total = 0;
  for (const stack = [root]; stack.length > 0;) {
    const pid = stack.pop()!;
    total += cpuMs(pid) || 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Until the process uses under 2 % of a core over 500 ms (started and waiting), at most 60 s. */
async function waitIdle(pid: number | undefined) {
  const end = Date.now() + 60_000;
  let last = cpuMs(pid);
  while (Date.now() < end) {
    await sleep(500);
    const now = cpuMs(pid);
    if (now - last < 10) return;
    last = now;
  }
}

const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** N extract jobs submitted straight to the simulator, 32 at a time. */
async function submitAll(simUrl: string) {
  // Tally's own sender (Node's http module, kept-alive connections): about half fetch's CPU, and the
  // bench shares the cores with what it measures.
  // One signal that never aborts, shared by the 32 senders: each request listens on it while in flight.
  const never = new AbortController().signal;
  setMaxListeners(0, never);
  const headers = { "x-api-key": CHAOS_API_KEY, "content-type": "application/json" };
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < N) {
        const i = next++;
        const body = JSON.stringify({
          url: `https://pipeline.example/${i}`,
          formats: ["markdown"],
          processing_mode: "async",
        });
        const res = await nodeSend(`${simUrl}/v1/extract`, { method: "POST", headers, body, signal: never });
        if (res.status !== 202) throw new Error(`submit → ${res.status} ${res.text}`);
      }
    }),
  );
}

async function configureSimulator(simUrl: string) {
  const cfg = await fetch(`${simUrl}/_sim/config`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(SIM),
  });
  if (!cfg.ok) throw new Error(`simulator config → ${cfg.status} ${await cfg.text()}`);
}

type FloorFigures = { jobs: number; jobsPerSecond: number; cpuMsPerJob: number };

/**
 * The floor: the same N jobs and webhooks to bench/pipeline-floor-server.ts, which only verifies each
 * delivery, answers it and GETs the job's document (no store, no queue). What one job's HTTP costs on
 * this machine beside the simulator, whatever the store.
 */
async function floorRun(): Promise<FloorFigures> {
  const sim = await startSimulator(28);
  const port = await freePort();
  let out = "";
  const floor = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "bench/pipeline-floor-server.ts",
      String(port),
      sim.url,
      CHAOS_API_KEY,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  floor.stdout.on("data", (d) => (out += d));
  floor.stderr.on("data", (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const count = async () =>
    (await (await fetch(`${url}/count`)).json()) as { fetched: number; failed: number; lastAt: number; cpuMs: number };
  try {
    for (let i = 0; !out.includes("floor ready"); i++) {
      if (i > 300 || floor.exitCode !== null) throw new Error(`the floor server did not start: ${out}`);
      await sleep(100);
    }
    await configureSimulator(sim.url);
    const hook = await fetch(`${sim.url}/v1/webhooks`, {
      method: "POST",
      headers: { "x-api-key": CHAOS_API_KEY, "content-type": "application/json" },
      body: JSON.stringify({ url: `${url}/webhooks/geonode`, event_type: "extract_completed" }),
    });
    if (hook.status !== 201) throw new Error(`webhook → ${hook.status} ${await hook.text()}`);
    const { secret } = (await hook.json()) as { secret: string };
    await fetch(`${url}/secret`, { method: "POST", body: secret });
    const before = await count();
    const t0 = Date.now();
    await submitAll(sim.url);
    let c = await count();
    let progress = { at: Date.now(), n: 0 };
    while (c.fetched + c.failed < N) {
      await sleep(200);
      c = await count();
      if (c.fetched + c.failed > progress.n) progress = { at: Date.now(), n: c.fetched + c.failed };
      if (Date.now() - progress.at > 60_000)
        throw new Error(`the floor: no progress for a minute at ${JSON.stringify(c)}`);
    }
    if (c.failed > 0) say(`  floor: ${c.failed} documents not fetched as completed`);
    const seconds = (c.lastAt - t0) / 1000;
    return { jobs: N, jobsPerSecond: round(N / seconds), cpuMsPerJob: round((c.cpuMs - before.cpuMs) / N, 2) };
  } finally {
    floor.kill("SIGTERM");
    await sim.stop().catch(() => undefined);
  }
}

async function tallyRun(kind: StoreKind): Promise<TallyFigures> {
  const store = await createChaosStore(kind);
  const sim = await startSimulator(28);
  const port = await freePort();
  const env = {
    DATABASE_URL: store.url,
    GEONODE_SCRAPER_API_KEY: CHAOS_API_KEY,
    SCRAPER_API_BASE_URL: sim.url,
    TALLY_OPERATOR_PASSWORD: "bench operator password",
    TALLY_SESSION_SECRET: "bench-session-secret-0123456789abcdef012345",
    TALLY_API_TOKEN: CHAOS_TOKEN,
    TALLY_PUBLIC_URL: `http://127.0.0.1:${port}`,
    TALLY_DELIVERY_MODE: "webhooks",
    TALLY_RECONCILE_INTERVAL_MINUTES: "0",
    TALLY_API_RPS: String(API_RPS),
    TALLY_LOG_LEVEL: "warn",
    ...(values.concurrency ? { TALLY_WORKER_CONCURRENCY: values.concurrency } : {}),
  };
  const tally = await startTallyProcess({
    ...env,
    PORT: String(port),
    ...(WORKERS > 0 ? { TALLY_WORKER: "off" } : {}),
  });
  const workers = Array.from({ length: WORKERS }, () => startWorkerProcess({ ...env, TALLY_SCHEDULER: "off" }));
  /** The CPU time so far of the server, its workers, the simulator and this bench, and the machine's ticks. */
  const reading = () => ({
    at: Date.now(),
    server: cpuMs(tally.pid()),
    workers: workers.reduce((a, w) => a + cpuMs(w.pid()), 0),
    sim: treeCpuMs(sim.pid()),
    bench: ownCpuMs(),
    machine: machineTicks(),
  });
  try {
    // A worker process loads its code for a few seconds (tsx); submits wait until it is idle, so the
    // figures measure the work and not its start.
    for (const w of workers) await waitIdle(w.pid());
    await configureSimulator(sim.url);
    const reg = await fetch(`${tally.url}/api/subscriptions/register`, {
      method: "POST",
      headers: { authorization: `Bearer ${CHAOS_TOKEN}` },
    });
    if (!reg.ok) throw new Error(`register → ${reg.status} ${await reg.text()}`);

    // Submitted straight to the platform: Tally hears of each job by its webhook only.
    const start = reading();
    const t0 = start.at;
    await submitAll(sim.url);
    const drain0 = reading();
    const submitSeconds = (drain0.at - t0) / 1000;
    say(`  ${kind}: ${N} jobs submitted to the simulator in ${round(submitSeconds, 1)} s`);

    // Until every job has an outcome; a minute without progress ends the wait with what is where.
    let stored = 0;
    let settled = 0;
    let lastSay = Date.now();
    let lastProgress = { at: Date.now(), settled: 0 };
    while (settled < N) {
      await sleep(500);
      const counts = await store.all<{ outcome: string; n: number | string }>(
        `SELECT "outcome", COUNT(*) AS "n" FROM "Job" GROUP BY "outcome"`,
      );
      const by = Object.fromEntries(counts.map((c) => [c.outcome, Number(c.n)]));
      stored = by.stored ?? 0;
      settled = Object.entries(by).reduce((a, [k, v]) => (k === "pending" ? a : a + v), 0);
      if (settled > lastProgress.settled) lastProgress = { at: Date.now(), settled };
      if (Date.now() - lastSay > 10_000) {
        say(`    ${Math.round((Date.now() - t0) / 1000)} s: ${JSON.stringify(by)}`);
        lastSay = Date.now();
      }
      if (Date.now() - lastProgress.at > 60_000) {
        const queue = await store.all(
          `SELECT "kind", "state", COUNT(*) AS "n" FROM "QueueItem" GROUP BY "kind", "state"`,
        );
        const pending = await store.all(
          `SELECT "id", "platformStatus", "origin", "attempts", "errorMessage" FROM "Job" WHERE "outcome" = 'pending' LIMIT 5`,
        );
        throw new Error(
          `${kind}: no progress for a minute at ${JSON.stringify(by)}; queue ${JSON.stringify(queue)}; pending ${JSON.stringify(pending)}; ${N - settled - Number(by.pending ?? 0)} jobs Tally has not heard of`,
        );
      }
    }
    const end = reading();
    const drainMs = Math.max(1, end.at - drain0.at);
    const drain = {
      seconds: round(drainMs / 1000, 1),
      serverCores: round((end.server - drain0.server) / drainMs, 2),
      workersCores: round((end.workers - drain0.workers) / drainMs, 2),
      simulatorCores: round((end.sim - drain0.sim) / drainMs, 2),
      machineIdle: round(
        (end.machine.idle - drain0.machine.idle) / Math.max(1, end.machine.total - drain0.machine.total),
        2,
      ),
    };
    const cpu = {
      workers: end.workers - start.workers,
      tally: end.server + end.workers - (start.server + start.workers),
      sim: end.sim - start.sim,
      bench: end.bench - start.bench,
    };
    if (stored < N) say(`  ${kind}: ${N - stored} jobs ended without being stored`);
    if (kind === "postgres") await perJobWrites(store);
    const rows = await store.all<{ settledAt: unknown; outcomeAt: unknown; receivedAt: unknown; fetchedAt: unknown }>(
      `SELECT j."settledAt", j."outcomeAt", r."receivedAt",
              (SELECT MIN(e."at") FROM "JobEvent" e WHERE e."jobId" = j."id" AND e."type" = 'attempt') AS "fetchedAt"
         FROM "Job" j LEFT JOIN "Receipt" r ON r."jobId" = j."id" WHERE j."outcome" = 'stored'`,
    );
    const outcomeAts = rows.map((r) => ms(r.outcomeAt)).sort((a, b) => a - b);
    const lags = rows.map((r) => ms(r.outcomeAt) - ms(r.settledAt)).sort((a, b) => a - b);
    // Where the time goes: the platform's webhook (settled → received) and Tally's fetch and store (received → stored).
    const heard = rows.filter((r) => r.receivedAt != null);
    const toReceipt = heard.map((r) => ms(r.receivedAt) - ms(r.settledAt)).sort((a, b) => a - b);
    const toStored = heard.map((r) => ms(r.outcomeAt) - ms(r.receivedAt)).sort((a, b) => a - b);
    // received → fetched: the queue's wait and the platform's GET; fetched → stored: results and outcome written.
    const toFetched = heard.map((r) => ms(r.fetchedAt) - ms(r.receivedAt)).sort((a, b) => a - b);
    const fetchedToStored = rows.map((r) => ms(r.outcomeAt) - ms(r.fetchedAt)).sort((a, b) => a - b);
    say(
      `    received → fetched p50 ${pct(toFetched, 50)} p95 ${pct(toFetched, 95)} ms; fetched → stored p50 ${pct(fetchedToStored, 50)} p95 ${pct(fetchedToStored, 95)} ms`,
    );
    const first = outcomeAts[0]!;
    const last = outcomeAts.at(-1)!;
    const endToEndSeconds = (last - t0) / 1000;
    // Every process writes its last call counts when it stops.
    await Promise.all(workers.map((w) => w.stop()));
    await tally.stop();
    const [calls] = await store.all<{ n: number | string | null }>(`SELECT SUM("count") AS "n" FROM "ApiCallMinute"`);
    return {
      jobs: N,
      submitSeconds: round(submitSeconds, 1),
      endToEndSeconds: round(endToEndSeconds, 1),
      jobsPerSecond: round(N / endToEndSeconds),
      steadyJobsPerSecond: round(N / Math.max(0.001, (last - first) / 1000)),
      settledToStoredMs: { p50: pct(lags, 50), p95: pct(lags, 95), p99: pct(lags, 99), max: lags.at(-1)! },
      settledToReceivedMs: { p50: pct(toReceipt, 50), p95: pct(toReceipt, 95) },
      receivedToStoredMs: { p50: pct(toStored, 50), p95: pct(toStored, 95) },
      serverCpuMsPerJob: round(cpu.tally / N, 2),
      simulatorCpuMsPerJob: round(cpu.sim / N, 2),
      benchCpuMsPerJob: round(cpu.bench / N, 2),
      ...(WORKERS > 0 ? { workersCpuMsPerJob: round(cpu.workers / N, 2) } : {}),
      drain,
      platformCallsPerJob: round(Number(calls?.n ?? 0) / N, 2),
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop().catch(() => undefined)));
    await tally.stop().catch(() => undefined);
    await sim.stop().catch(() => undefined);
    await store.dispose().catch(() => undefined);
  }
}

/** PostgreSQL's own counters for the run's database, per job: commits, and rows written per table. */
async function perJobWrites(store: ChaosStore) {
  await sleep(1500); // backends flush their statistics within a second of going idle
  const [db] = await store.all<{ xact_commit: string; xact_rollback: string }>(
    `SELECT "xact_commit", "xact_rollback" FROM pg_stat_database WHERE datname = current_database()`,
  );
  const tables = await store.all<{ relname: string; ins: string; upd: string; del: string }>(
    `SELECT relname, n_tup_ins AS "ins", n_tup_upd AS "upd", n_tup_del AS "del" FROM pg_stat_user_tables
      WHERE n_tup_ins + n_tup_upd + n_tup_del > 0 ORDER BY n_tup_ins + n_tup_upd + n_tup_del DESC`,
  );
  const per = (v: string | undefined) => round(Number(v ?? 0) / N, 2);
  say(
    `    per job: ${per(db?.xact_commit)} commits (transactions of every process on the database); rows written ${tables
      .map((t) => `${t.relname} +${per(t.ins)}/~${per(t.upd)}/-${per(t.del)}`)
      .join(", ")}`,
  );
}

/** The same writes per job, one job after another on one connection of the store's own driver. */
type Bare = { exec(sql: string, params: unknown[]): Promise<unknown[]>; close(): Promise<void> };

function bareSqlite(url: string): Bare {
  const conn = new Database(url.replace(/^file:/, ""));
  conn.pragma("journal_mode = WAL");
  conn.pragma("synchronous = NORMAL");
  const cache = new Map<string, Database.Statement>();
  return {
    async exec(sql, params) {
      let st = cache.get(sql);
      if (!st) cache.set(sql, (st = conn.prepare(sql)));
      const p = params.map((v) => (v instanceof Date ? v.getTime() : v));
      return st.reader ? (st.all(...p) as unknown[]) : (st.run(...p), []);
    },
    async close() {
      conn.close();
    },
  };
}

async function barePostgres(url: string): Promise<Bare> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async exec(sql, params) {
      let i = 0;
      const text = sql.replace(/\?/g, () => `$${++i}`);
      return (await client.query(text, params)).rows;
    },
    async close() {
      await client.end();
    },
  };
}

async function bareLoop(kind: StoreKind): Promise<{ jobs: number; seconds: number; jobsPerSecond: number }> {
  const store: ChaosStore = await createChaosStore(kind);
  const bare = kind === "sqlite" ? bareSqlite(store.url) : await barePostgres(store.url);
  try {
    const started = performance.now();
    for (let i = 0; i < N; i++) {
      const jobId = randomUUID();
      const now = new Date();
      const payload = JSON.stringify({ jobId });
      // The receiver's transaction: receipt, queue item, delivery log row.
      await bare.exec("BEGIN", []);
      await bare.exec(
        `INSERT INTO "Receipt" ("jobId","eventType","deliveryId","subscriptionId","source","receivedAt")
         VALUES (?,?,?,?,'webhook',?) ON CONFLICT ("jobId") DO NOTHING`,
        [jobId, "extract.completed", randomUUID(), "sub", now],
      );
      const [item] = (await bare.exec(
        `INSERT INTO "QueueItem" ("kind","payload","jobId","dedupeKey","state","attempts","maxAttempts","availableAt","createdAt","updatedAt")
         VALUES ('process_job',?,?,?,'ready',0,10,?,?,?) RETURNING "id"`,
        [payload, jobId, `job:${jobId}`, now, now, now],
      )) as { id: number }[];
      await bare.exec(
        `INSERT INTO "InboundDelivery" ("receivedAt","subscriptionId","deliveryId","eventType","jobId","status","reason","latencyMs","bodyBytes")
         VALUES (?,?,?,?,?,?,?,?,?)`,
        [now, "sub", randomUUID(), "extract.completed", jobId, 200, null, 1, 300],
      );
      await bare.exec("COMMIT", []);
      // The claim.
      await bare.exec(
        `UPDATE "QueueItem" SET "state" = 'leased', "leaseOwner" = ?, "leaseExpiresAt" = ?, "attempts" = "attempts" + 1, "updatedAt" = ?
         WHERE "id" = ? AND "state" = 'ready'`,
        ["bare", new Date(now.getTime() + 30_000), now, item!.id],
      );
      // The worker's transaction: the job and its result stored, the outcome, the timeline, the item done.
      await bare.exec("BEGIN", []);
      await bare.exec(
        `INSERT INTO "Job" ("id","kind","url","platformStatus","outcome","origin","resultCount","settledAt","outcomeAt","createdAt","updatedAt")
         VALUES (?,'extract',?,'completed','stored','webhook',1,?,?,?,?)`,
        [jobId, `https://pipeline.example/${i}`, now, now, now, now],
      );
      await bare.exec(
        `INSERT INTO "Result" ("jobId","itemKey","url","status","format","markdown","html","metadata","errorCode","errorMessage","tokensCharged","createdAt")
         VALUES (?,'0',?,'completed','markdown',?,NULL,NULL,NULL,NULL,1,?) ON CONFLICT ("jobId","itemKey") DO NOTHING`,
        [jobId, `https://pipeline.example/${i}`, MARKDOWN, now],
      );
      await bare.exec(`INSERT INTO "JobEvent" ("jobId","at","type","detail") VALUES (?,?,'outcome','stored')`, [
        jobId,
        now,
      ]);
      await bare.exec(
        `UPDATE "QueueItem" SET "state" = 'done', "dedupeKey" = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "doneAt" = ?, "updatedAt" = ?
         WHERE "id" = ? AND "leaseOwner" = ?`,
        [now, now, item!.id, "bare"],
      );
      await bare.exec("COMMIT", []);
    }
    const seconds = (performance.now() - started) / 1000;
    return { jobs: N, seconds: round(seconds, 1), jobsPerSecond: round(N / seconds) };
  } finally {
    await bare.close();
    await store.dispose();
  }
}

async function main() {
  if (!existsSync(serverBundle)) execFileSync("npm", ["run", "build"], { stdio: "inherit" });
  say(machine());
  say(
    `The pipeline when the platform is not the limit: ${N} extract jobs (50–200 ms each on the simulator), TALLY_API_RPS=${API_RPS}, webhooks to one Tally server${WORKERS > 0 ? ` (its worker off) and ${WORKERS} \`npm run worker\` process${WORKERS > 1 ? "es" : ""}` : ""}`,
  );
  const floor = values.floor ? await floorRun() : null;
  if (floor)
    say(
      `  the floor (HTTP only: each webhook verified and answered, each job's document fetched and parsed; no store, no queue): ${floor.jobsPerSecond} jobs/s, ${floor.cpuMsPerJob} ms of CPU a job`,
    );
  const rows: { store: StoreKind; tally: TallyFigures; bare: Awaited<ReturnType<typeof bareLoop>>; ratio: number }[] =
    [];
  for (const kind of STORES) {
    const tally = await tallyRun(kind);
    const bare = await bareLoop(kind);
    const ratio = round(tally.jobsPerSecond / bare.jobsPerSecond, 2);
    rows.push({ store: kind, tally, bare, ratio });
    const l = tally.settledToStoredMs;
    say(
      `  ${kind}: Tally ${tally.jobsPerSecond} jobs/s end to end (${N} in ${tally.endToEndSeconds} s from the first submit; ${tally.steadyJobsPerSecond}/s first stored → last), settled → stored p50 ${l.p50} p95 ${l.p95} p99 ${l.p99} max ${l.max} ms (settled → webhook received p50 ${tally.settledToReceivedMs.p50} p95 ${tally.settledToReceivedMs.p95}, received → stored p50 ${tally.receivedToStoredMs.p50} p95 ${tally.receivedToStoredMs.p95}); the store's bare loop ${bare.jobsPerSecond} jobs/s; ratio ${ratio}× (goal ≥ 0.5)`,
    );
    // What the machine can give: the three processes share its cores, so their CPU a job bounds the
    // rate whatever Tally does; "Tally free" is that bound if Tally's own work cost nothing.
    const cores = availableParallelism();
    const others = tally.simulatorCpuMsPerJob + tally.benchCpuMsPerJob;
    const bound = (ms: number) => round((cores * 1000) / ms);
    say(
      `    CPU a job (user + system, first submit → last outcome): Tally ${tally.serverCpuMsPerJob} ms, the simulator ${tally.simulatorCpuMsPerJob} ms, this bench ${tally.benchCpuMsPerJob} ms; the bare loop ${round(1000 / bare.jobsPerSecond, 2)} ms. ${cores} cores bound the three at ${bound(others + tally.serverCpuMsPerJob)} jobs/s, and at ${bound(others)} jobs/s (${round(bound(others) / bare.jobsPerSecond, 2)}× the bare loop) were Tally free${
        floor
          ? `; the floor ${floor.jobsPerSecond} jobs/s is ${round(floor.jobsPerSecond / bare.jobsPerSecond, 2)}× the bare loop, Tally ${round(tally.jobsPerSecond / floor.jobsPerSecond, 2)}× the floor`
          : ""
      }`,
    );
    // The rate budget's own bound: no deployment makes more platform calls a second, so no more jobs.
    const budgetCalls = budgetCallsPerSecond(API_RPS);
    const ceiling = round(budgetCalls / Math.max(1, tally.platformCallsPerJob));
    say(
      `    the budget: ${tally.platformCallsPerJob} platform call${tally.platformCallsPerJob === 1 ? "" : "s"} a job; TALLY_API_RPS=${API_RPS} lets out at most ${round(budgetCalls)} calls a second (lib/platform/shared-budget.ts), so at most ${ceiling} jobs/s: ${round(ceiling / bare.jobsPerSecond, 2)}× the bare loop, and Tally ran at ${round(tally.jobsPerSecond / ceiling, 2)}× that bound`,
    );
    const d = tally.drain;
    say(
      `    the drain (last submit → last outcome, ${d.seconds} s): Tally's server kept ${d.serverCores} of a core busy${
        WORKERS > 0 ? `, its workers ${d.workersCores} (${tally.workersCpuMsPerJob} ms a job in all)` : ""
      }, the simulator ${d.simulatorCores}; the machine's cores were ${Math.round(d.machineIdle * 100)} % idle`,
    );
  }
  if (values.result) writeFileSync(values.result, JSON.stringify({ floor, rows }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
