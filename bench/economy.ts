// tsx --conditions=react-server bench/economy.ts [--only webhook,steady,polling200,polling1000,reconcile] [--result FILE]
// API economy (issue 13), in one run against the simulator (in this process, test mode: no faults):
// the real receiver (bare node:http), worker, poller and reconciliation on a fresh SQLite database
// each, every platform call counted by purpose through the client's accounting (ApiCallMinute).
//   webhook      200 extract jobs of 0.2–1 s, webhooks: calls per finished job, settled → stored
//   steady       webhooks at a steady 5 jobs/s for 40 s, submitted by the team's own system straight to
//                the platform (Tally's budget carries only its own calls): settled → stored p50/p95
//   steady-tally-submits  the same submitted through Tally (5 submits + 5 fetches a second: the whole budget)
//   polling200   200 concurrent extract jobs of 20–60 s, polling: calls per job, settled → stored
//   polling1000  the same with 1,000 jobs (submitted at 50/s, then polled within the default budget)
//   reconcile    100,000 settled jobs in the platform's history, all accounted for: the pages of the
//                first (full) scheduled reconciliation and of the next one (recent)
//   backlog      30,000 settled jobs Tally never heard of, TALLY_API_RPS 50, reconciliation every minute
//                (issue 28): pages per kind of each scheduled run while the backlog drains, and jobs
//                submitted through Tally at 1 a second meanwhile: submit time, submitted → stored p50/p95
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { parseConfig, setConfigForTests, type TallyConfig } from "@/lib/config";
import { db, dbReady, disconnectAll } from "@/lib/db";
import { submitJob } from "@/lib/jobs/submit";
import { createPlatformClient } from "@/lib/platform/http-client";
import { flushApiCalls, resetPlatformClients } from "@/lib/platform/shared-client";
import { startReconcile } from "@/lib/safety-nets/reconcile";
import { createSimulator } from "@/lib/simulator/server";
import type { SimConfigPatch } from "@/lib/simulator/config";
import { registerSubscriptions } from "@/lib/subscriptions/register";
import { createReceiverServer } from "@/lib/webhooks/node-server";
import { closeReceiverStore, sqliteDate } from "@/lib/webhooks/store";
import { workerRegistry } from "@/lib/worker/registry";
import { startSchedules } from "@/lib/worker/schedules";
import { createWorker } from "@/lib/worker/worker";
import { machine } from "./common";

const PARTS = [
  "webhook",
  "steady",
  "steady-tally-submits",
  "polling200",
  "polling1000",
  "reconcile",
  "backlog",
] as const;
const { values } = parseArgs({
  options: { only: { type: "string" }, result: { type: "string" }, scenario: { type: "string" } },
  strict: true,
});
const only = values.only ? values.only.split(",") : [...PARTS];
const say = (s: string) => process.stdout.write(`${s}\n`);
const API_KEY = "bench-key";
const SETUP = new Set(["submit", "register"]);

const dir = mkdtempSync(path.join(os.tmpdir(), "tally-bench-economy-"));
const template = path.join(dir, "template.db");
let dbCount = 0;

function freshConfig(env: Record<string, string>): TallyConfig {
  if (dbCount === 0)
    execFileSync("npx", ["prisma", "migrate", "deploy"], {
      env: { ...process.env, DATABASE_URL: `file:${template}` },
      stdio: "pipe",
    });
  const file = path.join(dir, `tally-${++dbCount}.db`);
  copyFileSync(template, file);
  const config = parseConfig({
    NODE_ENV: "production",
    DATABASE_URL: `file:${file}`,
    TALLY_OPERATOR_PASSWORD: "bench password here",
    TALLY_SESSION_SECRET: "bench-session-secret-0123456789abcdef0123",
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_RECONCILE_INTERVAL_MINUTES: "0",
    TALLY_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "error",
    ...(process.env.BENCH_CONCURRENCY ? { TALLY_WORKER_CONCURRENCY: process.env.BENCH_CONCURRENCY } : {}),
    ...env,
  });
  setConfigForTests(config);
  return config;
}

async function startSim(config: SimConfigPatch) {
  const sim = createSimulator({ mode: "test", seed: 13, apiKey: API_KEY, config });
  const running = await sim.listen(0);
  return { sim, url: running.url, close: running.close };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Calls by purpose (from the accounting table, every process's counts flushed). */
async function callsByPurpose(): Promise<Record<string, number>> {
  await flushApiCalls();
  const rows = await db().apiCallMinute.groupBy({ by: ["purpose"], _sum: { count: true } });
  return Object.fromEntries(rows.map((r) => [r.purpose, r._sum.count ?? 0]));
}

type DeliveryResult = {
  part: string;
  mode: string;
  jobs: number;
  finished: number;
  seconds: number;
  callsPerJob: number;
  byPurpose: Record<string, number>;
  settledToStoredMs: { p50: number; p95: number; max: number };
  peakCallsPerMinute: number;
};

async function deliveryRun(opts: {
  part: string;
  mode: "webhooks" | "polling";
  jobs: number;
  durationMs: [number, number];
  submitEveryMs?: number;
  submitRps?: number;
  external?: boolean;
}): Promise<DeliveryResult> {
  const sim = await startSim({ jobDurationMs: opts.durationMs, retainJobs: 10_000 });
  const receiver = createReceiverServer();
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  const address = receiver.address();
  const port = address !== null && typeof address === "object" ? address.port : 0;
  const env = {
    SCRAPER_API_BASE_URL: sim.url,
    TALLY_DELIVERY_MODE: opts.mode,
    TALLY_PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  let config = freshConfig({ ...env, TALLY_API_RPS: String(opts.submitRps ?? 10) });
  await dbReady();
  resetPlatformClients();
  if (opts.mode === "webhooks") await registerSubscriptions("bench");
  const schedules = startSchedules(config);
  const worker = createWorker({
    registry: workerRegistry,
    concurrency: 4,
    leaseMs: 30_000,
    idleMs: 50,
    owner: "bench",
  });
  worker.start();
  const t0 = Date.now();
  const ids: string[] = [];
  // The team's own system submitting straight to the platform: Tally learns of each job from its webhook.
  const outside = createPlatformClient({ baseUrl: sim.url, apiKey: API_KEY, requestsPerSecond: 1000 });
  const submit = (i: number) =>
    opts.external
      ? outside.submitExtract({ url: `https://example.com/${opts.part}/${i}` }).then((a) => ({ jobId: a.job_id }))
      : submitJob({ kind: "extract", url: `https://example.com/${opts.part}/${i}` });
  if (opts.submitEveryMs) {
    for (let i = 0; i < opts.jobs; i++) {
      const due = t0 + i * opts.submitEveryMs;
      if (due > Date.now()) await sleep(due - Date.now());
      void submit(i).then((j) => ids.push(j.jobId));
    }
  } else {
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let i = next++; i < opts.jobs; i = next++)
          ids.push((await submitJob({ kind: "extract", url: `https://example.com/${opts.part}/${i}` })).jobId);
      }),
    );
  }
  if (opts.submitRps && opts.submitRps !== 10) {
    // All submitted: the polling that follows runs inside the default budget of 10 requests per second.
    config = { ...config, TALLY_API_RPS: 10 };
    setConfigForTests(config);
    resetPlatformClients();
  }
  say(`  ${opts.part}: ${opts.jobs} jobs submitted in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const [pending, finished] = await Promise.all([
      db().job.count({ where: { outcome: "pending" } }),
      db().job.count({ where: { outcome: { not: "pending" } } }),
    ]);
    if (pending === 0 && finished >= opts.jobs && ids.length === opts.jobs) break;
    if (Date.now() > deadline) throw new Error(`${opts.part}: ${pending} jobs still pending after 10 minutes`);
    await sleep(250);
  }
  const seconds = (Date.now() - t0) / 1000;
  schedules.stop();
  await worker.stop(1000);
  const byPurpose = await callsByPurpose();
  const jobs = await db().job.findMany({ select: { settledAt: true, outcomeAt: true, outcome: true } });
  const finished = jobs.filter((j) => j.outcome !== "pending");
  const lat = finished
    .filter((j) => j.settledAt && j.outcomeAt)
    .map((j) => j.outcomeAt!.getTime() - j.settledAt!.getTime());
  const perMinute = await db().apiCallMinute.groupBy({
    by: ["minute"],
    where: { purpose: { notIn: [...SETUP] } },
    _sum: { count: true },
  });
  const calls = Object.entries(byPurpose)
    .filter(([p]) => !SETUP.has(p))
    .reduce((n, [, c]) => n + c, 0);
  await new Promise<void>((r) => receiver.close(() => r()));
  await sim.close();
  await closeReceiverStore();
  await disconnectAll();
  return {
    part: opts.part,
    mode: opts.mode,
    jobs: opts.jobs,
    finished: finished.length,
    seconds: Math.round(seconds),
    callsPerJob: Math.round((calls / finished.length) * 1000) / 1000,
    byPurpose,
    settledToStoredMs: {
      p50: Math.round(pct(lat, 50)),
      p95: Math.round(pct(lat, 95)),
      max: Math.round(Math.max(...lat)),
    },
    peakCallsPerMinute: Math.max(0, ...perMinute.map((m) => m._sum.count ?? 0)),
  };
}

// A busy account's history: 100,000 jobs of all three kinds over the last week.
const MIX = [
  { kind: "extract", status: "completed", share: 0.76 },
  { kind: "extract", status: "failed", share: 0.03 },
  { kind: "extract", status: "cancelled", share: 0.01 },
  { kind: "batch", status: "completed", share: 0.11 },
  { kind: "batch", status: "failed", share: 0.01 },
  { kind: "crawl", status: "completed", share: 0.08 },
] as const;
const OUTCOME: Record<string, string> = { completed: "stored", failed: "dead_lettered", cancelled: "cancelled" };

async function reconcileRun(total: number) {
  const sim = await startSim({ retainJobs: total + 1000 });
  const week = 7 * 86_400;
  const t0 = Date.now();
  const jobs: { id: string; kind: string; status: string }[] = [];
  for (const m of MIX) {
    const count = Math.round(total * m.share);
    for (const id of sim.sim.seedJobs({
      count,
      kind: m.kind,
      status: m.status,
      ageSeconds: 3600,
      spacingSeconds: week / count,
    }))
      jobs.push({ id, kind: m.kind, status: m.status });
  }
  const config = freshConfig({ SCRAPER_API_BASE_URL: sim.url, TALLY_API_RPS: "1000" });
  const file = config.DATABASE_URL.replace(/^file:/, "");
  // Tally already holds every outcome: nothing is new, nothing is missing.
  const sql = new Database(file);
  sql.pragma("journal_mode = WAL");
  const insert = sql.prepare(
    `INSERT INTO "Job" ("id","kind","platformStatus","outcome","origin","attempts","outcomeAt","createdAt","updatedAt") VALUES (?,?,?,?,'submitted',1,?,?,?)`,
  );
  const then = sqliteDate(new Date(Date.now() - 3_600_000));
  sql.transaction(() =>
    jobs.forEach((j) => insert.run(j.id, j.kind, j.status, OUTCOME[j.status] ?? "stored", then, then, then)),
  )();
  sql.close();
  say(
    `  reconcile: ${jobs.length.toLocaleString("en-US")} settled jobs seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  await dbReady();
  resetPlatformClients();
  const runs = [];
  for (const label of ["first (scheduled)", "next (scheduled)"]) {
    const started = Date.now();
    const run = await (await startReconcile({}, "scheduler bench")).done;
    if (run.state !== "succeeded") throw new Error(`reconcile failed: ${run.error}`);
    const s = run.summary as {
      scope: string;
      enqueued: number;
      byKind: Record<string, { scope: string; pages: number; listed: number }>;
    };
    runs.push({
      label,
      scope: s.scope,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      enqueued: s.enqueued,
      byKind: Object.fromEntries(
        Object.entries(s.byKind).map(([k, v]) => [k, { scope: v.scope, pages: v.pages, listed: v.listed }]),
      ),
    });
  }
  await sim.close();
  await disconnectAll();
  return { part: "reconcile", historyJobs: jobs.length, runs };
}

/** 30,000 unknown settled jobs draining at TALLY_API_RPS 50 while fresh jobs are submitted at 1 a second. */
async function backlogRun(total = 30_000, freshJobs = 150) {
  const sim = await startSim({ retainJobs: total + 10_000 });
  const receiver = createReceiverServer();
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  const address = receiver.address();
  const port = address !== null && typeof address === "object" ? address.port : 0;
  const week = 7 * 86_400;
  for (const m of MIX.filter((x) => x.status === "completed")) {
    const count = Math.round(total * (m.share / 0.95));
    sim.sim.seedJobs({ count, kind: m.kind, status: m.status, ageSeconds: 3600, spacingSeconds: week / count });
  }
  const config = freshConfig({
    SCRAPER_API_BASE_URL: sim.url,
    TALLY_API_RPS: "50",
    TALLY_DELIVERY_MODE: "webhooks",
    TALLY_PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  await dbReady();
  resetPlatformClients();
  await registerSubscriptions("bench");
  const worker = createWorker({
    registry: workerRegistry,
    concurrency: config.TALLY_WORKER_CONCURRENCY,
    leaseMs: 30_000,
    idleMs: 50,
    owner: "bench",
  });
  worker.start();
  const runs: { label: string; seconds: number; enqueued: number; pages: Record<string, number> }[] = [];
  const reconcileOnce = async (label: string) => {
    const started = Date.now();
    const run = await (await startReconcile({}, "scheduler bench")).done;
    if (run.state !== "succeeded") throw new Error(`reconcile failed: ${run.error}`);
    const sum = run.summary as { enqueued: number; byKind: Record<string, { pages: number }> };
    runs.push({
      label,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      enqueued: sum.enqueued,
      pages: Object.fromEntries(Object.entries(sum.byKind).map(([k, v]) => [k, v.pages])),
    });
    say(`  backlog: ${label} reconciliation: ${sum.enqueued} enqueued, pages ${JSON.stringify(runs.at(-1)?.pages)}`);
  };
  await reconcileOnce("first (scheduled)");
  const backlogDone = () => db().job.count({ where: { origin: "reconcile", outcome: { not: "pending" } } });
  // Some of the backlog is done while the first run still lists it: counted apart from the fresh phase.
  const backlogBefore = await backlogDone();
  // Fresh work at 1 a second while the backlog drains, and the scheduled runs every minute beside it.
  const t0 = Date.now();
  const submitMs: number[] = [];
  const ids: string[] = [];
  const schedule = (async () => {
    for (let i = 2; i <= 3; i++) {
      await sleep(t0 + (i - 1) * 60_000 - Date.now());
      await reconcileOnce(i === 2 ? "second (scheduled)" : "third (scheduled)");
    }
  })();
  for (let i = 0; i < freshJobs; i++) {
    const due = t0 + i * 1000;
    if (due > Date.now()) await sleep(due - Date.now());
    const s0 = performance.now();
    void submitJob({ kind: "extract", url: `https://example.com/fresh/${i}` }).then((j) => {
      submitMs.push(performance.now() - s0);
      ids.push(j.jobId);
    });
  }
  await schedule;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const open = await db().job.count({ where: { id: { in: ids }, outcome: "pending" } });
    if ((open === 0 && ids.length === freshJobs) || Date.now() > deadline) break;
    await sleep(250);
  }
  const fresh = await db().job.findMany({
    where: { id: { in: ids } },
    select: { createdAt: true, outcomeAt: true, outcome: true },
  });
  const lat = fresh.filter((j) => j.outcomeAt).map((j) => j.outcomeAt!.getTime() - j.createdAt.getTime());
  const backlogStored = await backlogDone();
  const seconds = Math.round((Date.now() - t0) / 1000);
  await worker.stop(1000);
  await new Promise<void>((r) => receiver.close(() => r()));
  await sim.close();
  await closeReceiverStore();
  await disconnectAll();
  return {
    part: "backlog",
    historyJobs: total,
    runs,
    fresh: {
      jobs: freshJobs,
      stored: lat.length,
      submitMs: {
        p50: Math.round(pct(submitMs, 50)),
        p95: Math.round(pct(submitMs, 95)),
        max: Math.round(Math.max(...submitMs)),
      },
      submittedToStoredMs: {
        p50: Math.round(pct(lat, 50)),
        p95: Math.round(pct(lat, 95)),
        max: Math.round(Math.max(...lat)),
      },
    },
    backlogFinishedMeanwhile: backlogStored - backlogBefore,
    backlogFinishedDuringFirstRun: backlogBefore,
    seconds,
  };
}

type Scenario = () => Promise<
  DeliveryResult | Awaited<ReturnType<typeof reconcileRun>> | Awaited<ReturnType<typeof backlogRun>>
>;
const SCENARIOS: Record<string, Scenario> = {
  webhook: () => deliveryRun({ part: "webhook", mode: "webhooks", jobs: 200, durationMs: [200, 1000] }),
  steady: () =>
    deliveryRun({
      part: "steady",
      mode: "webhooks",
      jobs: 200,
      durationMs: [200, 1000],
      submitEveryMs: 200,
      external: true,
    }),
  "steady-tally-submits": () =>
    deliveryRun({
      part: "steady-tally-submits",
      mode: "webhooks",
      jobs: 200,
      durationMs: [200, 1000],
      submitEveryMs: 200,
    }),
  polling200: () => deliveryRun({ part: "polling200", mode: "polling", jobs: 200, durationMs: [20_000, 60_000] }),
  polling1000: () =>
    deliveryRun({ part: "polling1000", mode: "polling", jobs: 1000, durationMs: [20_000, 60_000], submitRps: 50 }),
  reconcile: () => reconcileRun(100_000),
  backlog: () => backlogRun(),
};

/** One scenario in this process (the parent runs each in a fresh process: module state and timers stay apart). */
async function runScenario(name: string, file: string) {
  const run = SCENARIOS[name];
  if (!run) throw new Error(`unknown scenario ${name}; one of ${PARTS.join(", ")}`);
  writeFileSync(file, JSON.stringify(await run()));
}

async function main() {
  say(`${machine()}\nAPI economy against the simulator (test mode, no faults); TALLY_API_RPS 10 unless said\n`);
  const results: unknown[] = [];
  const row = (r: DeliveryResult) =>
    `| ${r.part} | ${r.mode} | ${r.jobs} | ${r.callsPerJob} | ${r.settledToStoredMs.p50} | ${r.settledToStoredMs.p95} | ${r.peakCallsPerMinute} | ${Object.entries(
      r.byPurpose,
    )
      .map(([p, n]) => `${p} ${n}`)
      .join(", ")} |`;
  const table = [
    "| part | mode | jobs | calls per finished job (submits, register excluded) | settled → stored p50 ms | p95 ms | peak calls/min (of 600) | calls by purpose |",
    "|---|---|---|---|---|---|---|---|",
  ];
  let failed = false;
  for (const name of PARTS.filter((p) => only.includes(p))) {
    const file = path.join(dir, `${name}.json`);
    const child = spawnSync(
      "node_modules/.bin/tsx",
      ["--conditions=react-server", "bench/economy.ts", "--scenario", name, "--result", file],
      { stdio: "inherit" },
    );
    let r: unknown;
    try {
      r = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      say(`  ${name}: no result (exit code ${child.status})`);
      failed = true;
      continue;
    }
    results.push(r);
    if (name === "backlog") {
      const x = r as Awaited<ReturnType<typeof backlogRun>>;
      const lines = [
        "| scheduled run | enqueued | pages extract / batch / crawl | seconds |",
        "|---|---|---|---|",
        ...x.runs.map(
          (run) =>
            `| ${run.label} | ${run.enqueued} | ${run.pages.extract ?? 0} / ${run.pages.batch ?? 0} / ${run.pages.crawl ?? 0} | ${run.seconds} |`,
        ),
      ];
      say(
        `Backlog of ${x.historyJobs.toLocaleString("en-US")} unknown settled jobs at TALLY_API_RPS 50, reconciliation every minute:\n${lines.join("\n")}\n` +
          `Fresh jobs submitted through Tally at 1/s meanwhile: ${x.fresh.stored} of ${x.fresh.jobs} stored; submit p50 ${x.fresh.submitMs.p50} ms, p95 ${x.fresh.submitMs.p95} ms, max ${x.fresh.submitMs.max} ms; submitted → stored p50 ${x.fresh.submittedToStoredMs.p50} ms, p95 ${x.fresh.submittedToStoredMs.p95} ms, max ${x.fresh.submittedToStoredMs.max} ms; ${x.backlogFinishedMeanwhile} backlog jobs finished in the ${x.seconds} s (and ${x.backlogFinishedDuringFirstRun} while the first run listed)\n`,
      );
      continue;
    }
    if (name === "reconcile") {
      const x = r as Awaited<ReturnType<typeof reconcileRun>>;
      const lines = [
        "| run | scope | pages extract / batch / crawl | jobs listed | enqueued | seconds |",
        "|---|---|---|---|---|---|",
      ];
      for (const run of x.runs) {
        const k = (kind: string) => run.byKind[kind]?.pages ?? 0;
        const listed = Object.values(run.byKind).reduce((n, v) => n + v.listed, 0);
        lines.push(
          `| ${run.label} | ${run.scope} | ${k("extract")} / ${k("batch")} / ${k("crawl")} | ${listed.toLocaleString("en-US")} | ${run.enqueued} | ${run.seconds} |`,
        );
      }
      say(
        `Reconciliation with ${x.historyJobs.toLocaleString("en-US")} settled jobs in the platform's history (over a week), none new:\n${lines.join("\n")}\n`,
      );
    } else {
      const d = r as DeliveryResult;
      table.push(row(d));
      say(
        `  ${name}: ${d.callsPerJob} calls per finished job, settled → stored p50 ${d.settledToStoredMs.p50} ms p95 ${d.settledToStoredMs.p95} ms (${d.seconds} s)`,
      );
    }
  }
  if (table.length > 2) say(`\n${table.join("\n")}\n`);
  if (values.result) writeFileSync(values.result, `${JSON.stringify({ part: "economy", results })}\n`);
  if (failed) process.exitCode = 1;
}

(values.scenario ? runScenario(values.scenario, values.result ?? path.join(dir, "result.json")) : main())
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
