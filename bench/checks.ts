// tsx --conditions=react-server bench/checks.ts --store sqlite|postgres [--urls 20000] [--result FILE]
// Content checks and the escalation ladder at scale (issue 39), in one process per store: the simulator
// in process (8% of URLs on hosts answering block pages, a quarter of those hosts refusing even
// residential; 4% empty shells needing render_js; 1% soft 404s), one run of N URLs through the real
// submitter, store path (judge-rows) and settle pass, driven like the tests (each settled batch job
// processed as its webhook would). Then every URL is checked against the simulator's own answer
// (lib/simulator/page-kinds.ts, what each rung would get): bad pages detected at the first rung, false
// positives on good pages, recoverable ones stored, the rest failed with the right reason; chunks, URLs
// and tokens per rung.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { machine } from "./common";
import { pgAdmin, pgDatabaseUrl } from "./bench-db";

const { values } = parseArgs({
  options: {
    store: { type: "string", default: "sqlite" },
    urls: { type: "string", default: "20000" },
    result: { type: "string" },
  },
  strict: true,
});
const N = Number(values.urls);
const STORE = values.store === "postgres" ? "postgres" : "sqlite";
const say = (s: string) => process.stdout.write(`${s}\n`);
const API_KEY = "bench-key";
const URLS_PER_HOST = 5;
const KNOBS = {
  blockPageRate: 0.08,
  residentialUnblockShare: 0.75,
  emptyShellRate: 0.04,
  softNotFoundRate: 0.01,
  hostileShare: 0,
  jobDurationMs: [50, 300] as [number, number],
  retainJobs: 100_000,
};
const LADDER = ["plain", "render_js", "render_js_wait", "residential"] as const;

const dir = mkdtempSync(path.join(os.tmpdir(), "tally-bench-checks-"));
const pgName = `tally_bench_checks_${process.pid}`;
let url = `file:${path.join(dir, "tally.db")}`;
if (STORE === "postgres") url = pgDatabaseUrl(pgName);
process.env.DATABASE_URL = url;
process.env.TALLY_LOG_LEVEL ??= "error";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (a: number, b: number) => (b === 0 ? 100 : Math.round((a / b) * 10_000) / 100);

async function main() {
  say(machine());
  if (STORE === "postgres") await pgAdmin(`CREATE DATABASE "${pgName}"`);
  const schema = STORE === "postgres" ? ["--schema", "prisma/postgres/schema.prisma"] : [];
  execFileSync("npx", ["prisma", "migrate", "deploy", ...schema], { env: process.env, stdio: "pipe" });

  const { createSimulator } = await import("@/lib/simulator/server");
  const sim = createSimulator({ mode: "test", seed: 39, apiKey: API_KEY, config: KNOBS });
  const running = await sim.listen(0);
  const { parseConfig, setConfigForTests } = await import("@/lib/config");
  setConfigForTests(
    parseConfig({
      NODE_ENV: "production",
      DATABASE_URL: url,
      TALLY_OPERATOR_PASSWORD: "bench password here",
      TALLY_SESSION_SECRET: "bench-session-secret-0123456789abcdef0123",
      GEONODE_SCRAPER_API_KEY: API_KEY,
      SCRAPER_API_BASE_URL: running.url,
      TALLY_API_RPS: "1000",
      TALLY_RECONCILE_INTERVAL_MINUTES: "0",
      TALLY_LOG_LEVEL: "error",
    }),
  );
  const { db, dbReady, disconnectAll } = await import("@/lib/db");
  await dbReady();
  const { resetPlatformClients, flushApiCalls } = await import("@/lib/platform/shared-client");
  resetPlatformClients();
  const { createRun, parseValues, getRun, RUN_SUBMIT } = await import("@/lib/runs");
  const { processJobItem } = await import("@/lib/jobs/process-job");
  const { enqueue } = await import("@/lib/queue");
  const { isTerminal } = await import("@/lib/platform");
  const { createPlatformClient } = await import("@/lib/platform/http-client");
  const { workerRegistry } = await import("@/lib/worker/registry");
  const { createWorker } = await import("@/lib/worker/worker");
  const { servedPerOptionSet } = await import("@/lib/simulator/page-kinds");

  const urls = Array.from(
    { length: N },
    (_, i) => `https://h${Math.floor(i / URLS_PER_HOST)}.example/product/item-${i}`,
  );
  const peek = createPlatformClient({ baseUrl: running.url, apiKey: API_KEY, requestsPerSecond: 1000 });
  const t0 = performance.now();
  const created = await createRun(parseValues(urls), { name: "checks bench" }, "bench");
  const worker = () => createWorker({ registry: workerRegistry, concurrency: 4, leaseMs: 60_000, owner: "bench" });
  const processed = new Set<string>();
  let addsUp = true;
  for (let round = 0; round < 400; round++) {
    await worker().drain();
    const run = await getRun(created.id);
    const c = run.counts;
    if (c.pending + c.submitted + c.stored + c.retrying + c.suspect + c.failed !== run.total) addsUp = false;
    if (run.state === "completed") break;
    const open = await db().runChunk.findMany({
      where: { runId: created.id, state: "submitted" },
      select: { jobId: true },
    });
    for (const ch of open) {
      if (!ch.jobId || processed.has(ch.jobId)) continue;
      while (!isTerminal((await peek.getJob("batch", ch.jobId)).status)) await sleep(50);
      processed.add(ch.jobId);
      await enqueue(db(), processJobItem({ jobId: ch.jobId, kind: "batch", source: "webhook" }));
    }
    await db().queueItem.updateMany({ where: { kind: RUN_SUBMIT, state: "ready" }, data: { availableAt: new Date() } });
  }
  const seconds = (performance.now() - t0) / 1000;
  const run = await getRun(created.id);
  say(
    `${STORE}: run of ${N.toLocaleString("en-US")} URLs ${run.state} in ${seconds.toFixed(1)} s: ${JSON.stringify(run.counts)}, ${run.tokens.charged} tokens, ${run.platformCalls} platform calls`,
  );

  // Every URL against the simulator's own answer.
  const cfg = sim.getConfig();
  const rows = await db().runUrl.findMany({
    where: { runId: created.id },
    select: { url: true, state: true, rung: true, errorCode: true, rungsTried: true },
  });
  const rung0Jobs = (await db().runChunk.findMany({ where: { runId: created.id, rung: 0 }, select: { jobId: true } }))
    .map((c) => c.jobId)
    .filter((j): j is string => j !== null);
  const firstVerdict = new Map<string, string | null>();
  for (let i = 0; i < rung0Jobs.length; i += 50) {
    const results = await db().result.findMany({
      where: { jobId: { in: rung0Jobs.slice(i, i + 50) } },
      select: { url: true, checkVerdict: true },
    });
    for (const r of results) if (r.url) firstVerdict.set(r.url, r.checkVerdict);
  }
  let bad = 0;
  let detected = 0;
  let good = 0;
  let falsePositives = 0;
  let recoverable = 0;
  let recovered = 0;
  let unrecoverable = 0;
  let rightReason = 0;
  let goodStored = 0;
  const byKind: Record<string, number> = {};
  for (const u of rows) {
    const would = servedPerOptionSet(cfg, u.url);
    const kinds = LADDER.map((k) => would[k]?.kind ?? "good");
    const verdict = firstVerdict.get(u.url) ?? null;
    if (kinds[0] === "good") {
      good++;
      if (verdict !== "ok") falsePositives++;
      if (u.state === "stored" && u.rung === 0) goodStored++;
      continue;
    }
    bad++;
    byKind[kinds[0] ?? "?"] = (byKind[kinds[0] ?? "?"] ?? 0) + 1;
    if (verdict !== null && verdict !== "ok") detected++;
    const firstGood = kinds.findIndex((k) => k === "good");
    if (firstGood > 0) {
      recoverable++;
      if (u.state === "stored" && u.rung === firstGood) recovered++;
    } else {
      unrecoverable++;
      const last = kinds[kinds.length - 1];
      const want = last === "block" || last === "empty_shell" ? "blocked" : "content_check_failed";
      if (u.state === "failed" && u.errorCode === want) rightReason++;
    }
  }
  const perRung = await db().runChunk.groupBy({
    by: ["rung"],
    where: { runId: created.id },
    _count: { _all: true },
    _sum: { size: true, tokensCharged: true },
    orderBy: { rung: "asc" },
  });
  const rungs = perRung.map((r) => ({
    rung: r.rung,
    name: LADDER[r.rung] ?? String(r.rung),
    chunks: r._count._all,
    urls: r._sum.size ?? 0,
    tokens: r._sum.tokensCharged ?? 0,
  }));
  say(
    `${STORE}: bad pages ${bad} (${pct(bad, N)}%: ${Object.entries(byKind)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}): detected at the first rung ${detected} (${pct(detected, bad)}%)`,
  );
  say(`${STORE}: good pages ${good}: false positives ${falsePositives}; stored plain ${goodStored}`);
  say(
    `${STORE}: recoverable ${recoverable}: stored at the first rung that works ${recovered} (${pct(recovered, recoverable)}%)`,
  );
  say(
    `${STORE}: not recoverable ${unrecoverable}: failed with the right reason ${rightReason} (${pct(rightReason, unrecoverable)}%)`,
  );
  for (const r of rungs)
    say(
      `${STORE}: rung ${r.rung} (${r.name}): ${r.chunks} batch calls, ${r.urls.toLocaleString("en-US")} URLs, ${r.tokens.toLocaleString("en-US")} tokens${r.rung > 0 ? " (extra)" : ""}`,
    );
  say(`${STORE}: counts added up at every read: ${addsUp}`);

  await flushApiCalls().catch(() => undefined);
  await running.close();
  await disconnectAll();
  if (values.result)
    writeFileSync(
      values.result,
      JSON.stringify({
        store: STORE,
        urls: N,
        seconds,
        bad,
        byKind,
        detectedShare: pct(detected, bad),
        good,
        falsePositives,
        recoverable,
        recoveredShare: pct(recovered, recoverable),
        unrecoverable,
        rightReasonShare: pct(rightReason, unrecoverable),
        platformCalls: run.platformCalls,
        tokens: run.tokens.charged,
        addsUp,
        rungs,
      }),
    );
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (STORE === "postgres") await pgAdmin(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`).catch(() => undefined);
  });
