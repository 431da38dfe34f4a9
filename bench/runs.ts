// tsx --experimental-websocket --conditions=react-server bench/runs.ts [--only webhook,polling,large-sqlite,large-postgres]
//                                                                    [--urls 20000] [--large-urls 100000] [--watch-seconds 90] [--result FILE]
// Runs (issue 24) end to end: the simulator and Tally's built server (`npm start`'s bundle) as
// separate processes, a run created through POST /api/runs, the platform's calls counted by the
// simulator itself (GET /_sim/calls), Tally's memory read from /proc.
//   webhook         20,000 URLs, webhooks, the default TALLY_API_RPS: platform calls per URL (goal ≤ 0.03)
//                   and wall time (created → completed) against the platform's own processing time (the
//                   span from the run's first batch job created to its last completed on the platform),
//                   goal: at most 2 minutes more
//   polling         the same in polling mode (goal ≤ 0.06 calls per URL)
//   large-sqlite    100,000 URLs in one run on SQLite: create time (goal < 10 s), then while it runs
//                   GET /api/runs/{id}, the run page and its failed-URLs list timed (goal p95 < 300 ms)
//                   and the server's RSS sampled (goal: flat)
//   large-postgres  the same on PostgreSQL
// Batch jobs take 20–60 s on the simulator and 5 % of items fail (the demo's rate), so item retries
// are in the count. Reconciliation is off (TALLY_RECONCILE_INTERVAL_MINUTES=0): the calls are the run's.
// Needs `npm run build` (built on first use).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { freePort, startSimulator, startTallyProcess, type Proc, type TallyProc } from "../scripts/chaos/processes";
import { createChaosStore, type ChaosStore, type StoreKind } from "../scripts/chaos/store";
import { serverBundle } from "../scripts/server-bundle.mjs";
import { machine } from "./common";
import { canProbeHeap, openHeapProbe } from "./live-heap";

const PARTS = ["webhook", "polling", "large-sqlite", "large-postgres"] as const;
const { values } = parseArgs({
  options: {
    only: { type: "string" },
    urls: { type: "string", default: "20000" },
    "large-urls": { type: "string", default: "100000" },
    "watch-seconds": { type: "string", default: "90" },
    result: { type: "string" },
  },
  strict: true,
});
const only = values.only ? values.only.split(",").map((s) => s.trim()) : [...PARTS];
const URLS = Number(values.urls);
const LARGE = Number(values["large-urls"]);
const WATCH_MS = Number(values["watch-seconds"]) * 1000;
const HEAP_EVERY_MS = 10_000;
const say = (s: string) => process.stdout.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TOKEN = "bench-token-0123456789abcdef0123";
const API_KEY = "bench-api-key";
const SIM = { jobDurationMs: [20_000, 60_000], itemFailureRate: 0.05, retainJobs: 10_000 };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN);
};
const round = (v: number, d = 0) => Math.round(v * 10 ** d) / 10 ** d;

/** The server's resident memory in MB, from /proc (Linux). */
function rssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? round(Number(m[1]) / 1024, 1) : null;
  } catch {
    return null;
  }
}

type Setup = { sim: Proc; tally: TallyProc; store: ChaosStore; api: Api; stop(): Promise<void> };
type Api = (method: string, p: string, body?: string, type?: string) => Promise<{ status: number; json: unknown }>;

async function setup(kind: StoreKind, delivery: "webhooks" | "polling", inspectPort?: number): Promise<Setup> {
  const store = await createChaosStore(kind);
  const sim = await startSimulator(24);
  const port = await freePort();
  const nodeArgs = inspectPort ? [`--inspect=127.0.0.1:${inspectPort}`] : [];
  const tally = await startTallyProcess(
    {
      PORT: String(port),
      DATABASE_URL: store.url,
      GEONODE_SCRAPER_API_KEY: API_KEY,
      SCRAPER_API_BASE_URL: sim.url,
      TALLY_OPERATOR_PASSWORD: "bench operator password",
      TALLY_SESSION_SECRET: "bench-session-secret-0123456789abcdef012345",
      TALLY_API_TOKEN: TOKEN,
      TALLY_PUBLIC_URL: `http://127.0.0.1:${port}`,
      TALLY_DELIVERY_MODE: delivery,
      TALLY_RECONCILE_INTERVAL_MINUTES: "0",
      TALLY_LOG_LEVEL: "warn",
    },
    { nodeArgs },
  );
  const api: Api = async (method, p, body, type = "application/json") => {
    const res = await fetch(tally.url + p, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": type },
      body,
    });
    const text = await res.text();
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {
      // a page
    }
    return { status: res.status, json };
  };
  const cfg = await fetch(`${sim.url}/_sim/config`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(SIM),
  });
  if (!cfg.ok) throw new Error(`simulator config → ${cfg.status}`);
  if (delivery === "webhooks") {
    const r = await api("POST", "/api/subscriptions/register");
    if (r.status >= 300) throw new Error(`register → ${r.status} ${JSON.stringify(r.json)}`);
  }
  return {
    sim,
    tally,
    store,
    api,
    async stop() {
      await tally.stop().catch(() => undefined);
      await sim.stop().catch(() => undefined);
      await store.dispose().catch(() => undefined);
    },
  };
}

type RunView = {
  id: string;
  state: string;
  total: number;
  counts: Record<"pending" | "submitted" | "stored" | "retrying" | "failed", number>;
  duplicateSubmits: number;
  platformCalls: number;
  createdAt: string;
  completedAt: string | null;
};

const list = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `https://bench.example/${tag}/${i}`).join("\n") + "\n";

async function createRun(api: Api, n: number, tag: string) {
  const t0 = performance.now();
  const r = await api("POST", `/api/runs?name=${tag}`, list(n, tag), "text/plain");
  const ms = performance.now() - t0;
  if (r.status !== 201) throw new Error(`POST /api/runs → ${r.status} ${JSON.stringify(r.json).slice(0, 500)}`);
  return { id: (r.json as { id: string }).id, createMs: ms };
}

const addsUp = (r: RunView) =>
  r.counts.pending + r.counts.submitted + r.counts.stored + r.counts.retrying + r.counts.failed === r.total;

/** One 20,000-URL run to the end: calls per URL, wall time against the platform's own time. */
async function fullRun(part: "webhook" | "polling") {
  const delivery = part === "webhook" ? "webhooks" : "polling";
  const s = await setup("sqlite", delivery);
  try {
    const { id, createMs } = await createRun(s.api, URLS, part);
    const created = Date.now();
    say(`  ${part}: run of ${URLS} URLs created in ${round(createMs)} ms`);
    let reads = 0;
    let bad = 0;
    const rss: number[] = [];
    let run: RunView | undefined;
    const deadline = Date.now() + 30 * 60_000;
    for (let tick = 0; ; tick++) {
      const r = await s.api("GET", `/api/runs/${id}`);
      run = r.json as RunView;
      reads++;
      if (!addsUp(run)) bad++;
      const m = rssMb(s.tally.pid());
      if (m !== null) rss.push(m);
      if (tick % 15 === 0)
        say(
          `    ${Math.round((Date.now() - created) / 1000)} s: ${run.state}, stored ${run.counts.stored}, failed ${run.counts.failed}, retrying ${run.counts.retrying}, submitted ${run.counts.submitted}, pending ${run.counts.pending}; RSS ${m} MB`,
        );
      if (run.state === "completed" || run.state === "cancelled") break;
      if (Date.now() > deadline) throw new Error(`${part}: not completed after 30 minutes`);
      await sleep(1000);
    }
    const completedAt = run.completedAt ? Date.parse(run.completedAt) : Date.now();
    // The platform's count of Tally's calls since the run was created (registration came before).
    const calls = ((await (await fetch(`${s.sim.url}/_sim/calls`)).json()) as { calls: { at: number }[] }).calls;
    const runCalls = calls.filter((c) => c.at >= created - createMs).length;
    // The platform's own processing time: first batch job created → last completed, from the platform.
    const jobs = await s.store.all<{ jobId: string | null; seq: number }>(
      `SELECT "jobId", "seq" FROM "RunChunk" WHERE "runId" = ?`,
      id,
    );
    let first = Infinity;
    let last = 0;
    for (const j of jobs) {
      if (!j.jobId) continue;
      const doc = (await (
        await fetch(`${s.sim.url}/v1/batch/${j.jobId}?page_size=1`, { headers: { "x-api-key": API_KEY } })
      ).json()) as { created_at: string; completed_at: string | null };
      first = Math.min(first, Date.parse(doc.created_at));
      if (doc.completed_at) last = Math.max(last, Date.parse(doc.completed_at));
    }
    const wallS = (completedAt - Date.parse(run.createdAt)) / 1000;
    const platformS = (last - first) / 1000;
    const result = {
      part,
      mode: delivery,
      urls: URLS,
      state: run.state,
      stored: run.counts.stored,
      failed: run.counts.failed,
      batchJobs: jobs.length,
      platformCalls: runCalls,
      runPlatformCalls: run.platformCalls,
      callsPerUrl: round(runCalls / URLS, 4),
      goalCallsPerUrl: part === "webhook" ? 0.03 : 0.06,
      wallSeconds: round(wallS, 1),
      platformSeconds: round(platformS, 1),
      overheadSeconds: round(wallS - platformS, 1),
      duplicateSubmits: run.duplicateSubmits,
      reads,
      readsNotAddingUp: bad,
      rssMb: { min: Math.min(...rss), max: Math.max(...rss) },
    };
    say(
      `  ${part}: ${result.state}, ${result.stored} stored, ${result.failed} failed in ${result.batchJobs} batch jobs; ${runCalls} platform calls = ${result.callsPerUrl} per URL (goal ≤ ${result.goalCallsPerUrl}); wall ${result.wallSeconds} s vs platform ${result.platformSeconds} s (+${result.overheadSeconds} s, goal ≤ 120); ${bad} of ${reads} reads not adding up; RSS ${result.rssMb.min}–${result.rssMb.max} MB`,
    );
    return result;
  } finally {
    await s.stop();
  }
}

async function timed(f: () => Promise<{ status: number }>): Promise<number> {
  const t0 = performance.now();
  const r = await f();
  if (r.status !== 200) throw new Error(`answered ${r.status}`);
  return performance.now() - t0;
}

/** 100,000 URLs in one run: create time, reads while it runs, the server's memory. */
async function largeRun(kind: StoreKind) {
  const inspectPort = canProbeHeap() ? await freePort() : undefined;
  const s = await setup(kind, "webhooks", inspectPort);
  const heap = inspectPort ? await openHeapProbe(inspectPort) : null;
  if (!heap) say("  (no global WebSocket: the live heap is not read; run with --experimental-websocket on Node 20)");
  try {
    const before = rssMb(s.tally.pid());
    // Warm the routes first, so the live heap before the run holds what serving them keeps.
    await s.api("GET", `/api/runs`);
    await s.api("GET", `/runs`, undefined, "text/html");
    const heapBefore = heap ? await heap.liveMb() : null;
    const { id, createMs } = await createRun(s.api, LARGE, `large-${kind}`);
    say(`  large-${kind}: run of ${LARGE} URLs created in ${round(createMs)} ms (RSS before ${before} MB)`);
    const times: Record<string, number[]> = { api: [], page: [], failed: [] };
    const rss: { s: number; mb: number }[] = [];
    let bad = 0;
    let last: RunView | undefined;
    // Warm-up: the first render of each route compiles and caches; it is not what an operator waits for.
    for (let i = 0; i < 3; i++) {
      await s.api("GET", `/api/runs/${id}`);
      await s.api("GET", `/runs/${id}`, undefined, "text/html");
      await s.api("GET", `/api/runs/${id}/urls?state=failed&limit=50`);
    }
    // The live heap after a full collection, every HEAP_EVERY_MS: what the process holds, unlike RSS.
    const live: { s: number; mb: number }[] = [];
    const t0 = Date.now();
    if (heap) live.push({ s: 0, mb: await heap.liveMb() });
    while (Date.now() - t0 < WATCH_MS) {
      times.api!.push(
        await timed(async () => {
          const r = await s.api("GET", `/api/runs/${id}`);
          last = r.json as RunView;
          if (r.status === 200 && !addsUp(last)) bad++;
          return r;
        }),
      );
      times.page!.push(await timed(() => s.api("GET", `/runs/${id}`, undefined, "text/html")));
      times.failed!.push(await timed(() => s.api("GET", `/api/runs/${id}/urls?state=failed&limit=50`)));
      const m = rssMb(s.tally.pid());
      if (m !== null) rss.push({ s: Math.round((Date.now() - t0) / 1000), mb: m });
      if (heap && Date.now() - t0 >= live.length * HEAP_EVERY_MS)
        live.push({ s: Math.round((Date.now() - t0) / 1000), mb: await heap.liveMb() });
      await sleep(500);
    }
    const run = last!;
    const quarter = Math.max(1, Math.floor(rss.length / 4));
    const firstQ = rss.slice(0, quarter).map((r) => r.mb);
    const lastQ = rss.slice(-quarter).map((r) => r.mb);
    const stat = (xs: number[]) => ({ n: xs.length, p50: round(pct(xs, 50), 1), p95: round(pct(xs, 95), 1) });
    const result = {
      part: `large-${kind}`,
      store: kind,
      urls: LARGE,
      createMs: round(createMs),
      watchSeconds: WATCH_MS / 1000,
      progress: { stored: run.counts.stored, failed: run.counts.failed, submitted: run.counts.submitted },
      apiMs: stat(times.api!),
      pageMs: stat(times.page!),
      failedUrlsMs: stat(times.failed!),
      readsNotAddingUp: bad,
      rssMb: {
        before,
        min: Math.min(...rss.map((r) => r.mb)),
        max: Math.max(...rss.map((r) => r.mb)),
        firstQuarterMean: round(firstQ.reduce((a, b) => a + b, 0) / firstQ.length, 1),
        lastQuarterMean: round(lastQ.reduce((a, b) => a + b, 0) / lastQ.length, 1),
      },
      liveHeapMb:
        live.length > 0
          ? {
              samples: live,
              beforeRun: heapBefore,
              first: live[0]!.mb,
              last: live.at(-1)!.mb,
              max: Math.max(...live.map((l) => l.mb)),
            }
          : null,
    };
    say(
      `  large-${kind}: created in ${result.createMs} ms (goal < 10,000); over ${result.watchSeconds} s (stored ${run.counts.stored}, submitted ${run.counts.submitted}): GET /api/runs/{id} p50 ${result.apiMs.p50} p95 ${result.apiMs.p95} ms, run page p50 ${result.pageMs.p50} p95 ${result.pageMs.p95} ms, failed URLs p95 ${result.failedUrlsMs.p95} ms (goal p95 < 300); RSS ${result.rssMb.min}–${result.rssMb.max} MB (first quarter ${result.rssMb.firstQuarterMean}, last ${result.rssMb.lastQuarterMean}); ${bad} reads not adding up`,
    );
    if (result.liveHeapMb)
      say(
        `  large-${kind}: live heap after a full collection: ${result.liveHeapMb.beforeRun} MB before the run; ${result.liveHeapMb.first} → ${result.liveHeapMb.last} MB (max ${result.liveHeapMb.max}; every ${HEAP_EVERY_MS / 1000} s: ${live.map((l) => l.mb).join(", ")})`,
      );
    await s.api("POST", `/api/runs/${id}/cancel`);
    return result;
  } finally {
    heap?.close();
    await s.stop();
  }
}

async function main() {
  if (!existsSync(serverBundle)) execFileSync("npm", ["run", "build"], { stdio: "inherit" });
  say(
    `${machine()}\nRuns against the simulator (batch jobs 20–60 s, 5 % item failures), Tally's built server, default TALLY_API_RPS\n`,
  );
  const results: unknown[] = [];
  let failed = false;
  for (const part of PARTS.filter((p) => only.includes(p))) {
    try {
      if (part === "webhook" || part === "polling") results.push(await fullRun(part));
      else results.push(await largeRun(part === "large-sqlite" ? "sqlite" : "postgres"));
    } catch (err) {
      say(`  ${part}: FAILED ${err instanceof Error ? err.message : String(err)}`);
      failed = true;
    }
  }
  if (values.result) writeFileSync(values.result, `${JSON.stringify({ part: "runs", results })}\n`);
  if (failed) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
