// tsx --conditions=react-server bench/reconcile.ts --jobs 100000 [--result FILE]
// Reconciliation at scale, locally: the simulator (its own process, test mode) is seeded with N
// settled jobs of all three kinds; a fresh Tally database already holds the outcome of 99% of
// them; the 1% missing are half never heard of (dropped webhook) and half received but without an
// outcome (crashed worker). Then the real reconcile run, with the real client over HTTP, is timed,
// and the queue is checked to hold exactly the missing 1%.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { z } from "zod";
import { machine } from "./common";
import { seedTallyDb, type PlatformJob } from "./reconcile-seed";

const { values } = parseArgs({
  options: { jobs: { type: "string", default: "10000" }, result: { type: "string" } },
  strict: true,
});
const N = Number(values.jobs);
const say = (s: string) => process.stdout.write(`${s}\n`);
const API_KEY = "bench-key";
const RPS = 1000; // the highest budget the config allows: this measures Tally, not the rate limit

async function startSim() {
  const child = spawn(
    "node_modules/.bin/tsx",
    [
      "--conditions=react-server",
      "scripts/sim.ts",
      "--port",
      "0",
      "--api-key",
      API_KEY,
      "--quiet",
      "--config",
      JSON.stringify({ retainJobs: Math.min(1_000_000, N + 1000) }),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.on("line", (line) => {
      const m = /on (http:\/\/\S+)/.exec(line);
      if (m?.[1]) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`simulator exited (${code}) before listening`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((r) =>
        child.exitCode !== null ? r() : (child.once("exit", () => r()), child.kill("SIGTERM")),
      ),
  };
}

// Kinds and statuses in proportions like a busy account's history.
const MIX = [
  { kind: "extract", status: "completed", share: 0.76 },
  { kind: "extract", status: "failed", share: 0.03 },
  { kind: "extract", status: "cancelled", share: 0.01 },
  { kind: "batch", status: "completed", share: 0.11 },
  { kind: "batch", status: "failed", share: 0.01 },
  { kind: "crawl", status: "completed", share: 0.08 },
] as const;

async function seedPlatform(url: string): Promise<PlatformJob[]> {
  const out: PlatformJob[] = [];
  let left = N;
  for (const [i, m] of MIX.entries()) {
    const count = i === MIX.length - 1 ? left : Math.round(N * m.share);
    left -= count;
    const res = await fetch(`${url}/_sim/seed`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ count, kind: m.kind, status: m.status, ageSeconds: 3600 }),
    });
    const body = z.object({ ids: z.array(z.string()) }).parse(await res.json());
    for (const id of body.ids) out.push({ id, kind: m.kind, status: m.status });
  }
  return out;
}

async function main(): Promise<void> {
  say(
    `${machine()}\nReconciliation of ${N.toLocaleString("en-US")} platform jobs, 1% without an outcome locally (client budget ${RPS} requests/s)`,
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), "tally-bench-reconcile-"));
  const file = path.join(dir, "tally.db");
  const sim = await startSim();
  try {
    const migrated = spawnSync("npx", ["prisma", "migrate", "deploy"], {
      env: { ...process.env, DATABASE_URL: `file:${file}` },
      encoding: "utf8",
    });
    if (migrated.status !== 0) throw new Error(`migration failed: ${migrated.stderr}`);
    let t0 = performance.now();
    const platformJobs = await seedPlatform(sim.url);
    say(
      `  simulator seeded with ${platformJobs.length.toLocaleString("en-US")} settled jobs in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const missing = seedTallyDb(file, platformJobs);
    say(
      `  Tally database: ${(platformJobs.length - missing.size).toLocaleString("en-US")} outcomes present, ${missing.size} missing`,
    );

    // The lib reads everything from the configuration: set it before the first getConfig().
    Object.assign(process.env, {
      DATABASE_URL: `file:${file}`,
      SCRAPER_API_BASE_URL: sim.url,
      GEONODE_SCRAPER_API_KEY: API_KEY,
      TALLY_OPERATOR_PASSWORD: "bench-password",
      TALLY_API_RPS: String(RPS),
      TALLY_LOG_LEVEL: "error",
      TALLY_WORKER: "off",
    });
    const { startReconcile } = await import("@/lib/safety-nets/reconcile");
    const { flushApiCalls, getPlatformClient } = await import("@/lib/platform/shared-client");
    const { dbReady, disconnectAll } = await import("@/lib/db");
    await dbReady();

    // Listing alone first: the platform's share of the time, and a warm-up for both processes.
    t0 = performance.now();
    let listed = 0;
    const client = getPlatformClient();
    for (const pages of [client.listExtractJobs(), client.listBatchJobs(), client.listCrawlJobs()])
      for await (const p of pages) listed += p.items.length;
    const listSeconds = (performance.now() - t0) / 1000;

    t0 = performance.now();
    const run = await (await startReconcile({}, "bench")).done;
    const seconds = (performance.now() - t0) / 1000;
    const summary = z
      .object({ listed: z.number(), enqueued: z.number(), alreadyDone: z.number(), pages: z.number() })
      .parse(run.summary);
    // Write the pending API call counts now: their flush timer must not fire after the database is gone.
    await flushApiCalls();
    await disconnectAll();

    const sql = new Database(file, { readonly: true });
    const queued = z
      .array(z.object({ jobId: z.string() }))
      .parse(sql.prepare(`SELECT "jobId" FROM "QueueItem" WHERE "state" = 'ready' AND "kind" = 'process_job'`).all());
    sql.close();
    const exact = queued.length === missing.size && queued.every((q) => missing.has(q.jobId));
    const result = {
      part: "reconcile",
      jobs: N,
      state: run.state,
      pages: summary.pages,
      listed: summary.listed,
      listOnlySeconds: +listSeconds.toFixed(2),
      listedByClient: listed,
      seconds: +seconds.toFixed(2),
      jobsPerSecond: Math.round(summary.listed / seconds),
      missing: missing.size,
      enqueued: summary.enqueued,
      queued: queued.length,
      exact,
    };
    say(
      `  listing alone: ${listSeconds.toFixed(2)} s; reconcile run: ${seconds.toFixed(2)} s (${result.jobsPerSecond.toLocaleString("en-US")} jobs/s, ${summary.pages} pages); enqueued ${summary.enqueued} of ${missing.size} missing: ${exact ? "exactly the missing ones" : "MISMATCH"}`,
    );
    if (values.result) writeFileSync(values.result, `${JSON.stringify(result)}\n`);
    if (!exact || run.state !== "succeeded") process.exitCode = 1;
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
