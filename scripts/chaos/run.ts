// The chaos run: simulator and Tally as separate processes, N jobs under injected faults, some
// cancelled on the platform, SIGKILLs of the Tally server at random moments, a secret rotated
// mid-run (one by Tally, one "elsewhere"), a forwarding destination whose sink fails a share of
// requests and goes down for 15 s, reconciliation at the end, then the ledger against the
// simulator's truth and the sink's record.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import Database from "better-sqlite3";
import { mulberry32 } from "../../lib/simulator/rng";
import { computeForwarded, startChaosSink } from "./forwarded";
import { computeLedger, simStateSchema, type Ledger } from "./ledger";
import { freePort, startSimulator, startTallyProcess, type TallyProc } from "./processes";

export type ChaosOptions = { jobs: number; kills: number; seed: number; timeoutMs: number; log?: (s: string) => void };

const TOKEN = "chaos-token-0123456789abcdef";
const API_KEY = "chaos-api-key";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));


export const CHAOS_FAULTS = {
  jobDurationMs: [300, 4000],
  failureRate: 0.1,
  retryableShare: 0.5,
  webhookDropRate: 0.2,
  webhookDuplicateRate: 0.1,
  webhookDelayRate: 0.1,
  webhookDelayMs: [200, 3000],
  earlyWebhookRate: 0.05,
  rateLimitRate: 0.025,
  serverErrorRate: 0.025,
  retryAfterSeconds: 1,
  deliveryRetryScheduleMs: [0, 500, 2000, 5000, 10000],
};

export async function runChaos(o: ChaosOptions): Promise<Ledger> {
  const log = o.log ?? console.log;
  const random = mulberry32(o.seed);
  const dir = mkdtempSync(path.join(tmpdir(), "tally-chaos-"));
  const dbFile = path.join(dir, "tally.db");
  const started = Date.now();
  const deadline = started + o.timeoutMs;
  const sim = await startSimulator(o.seed);
  const sink = await startChaosSink(mulberry32(o.seed + 1));
  let outage: Promise<void> | null = null;
  let tally: TallyProc | undefined;
  try {
    const migrate = spawnSync("npx", ["prisma", "migrate", "deploy"], { env: { ...process.env, DATABASE_URL: `file:${dbFile}` }, encoding: "utf8" });
    if (migrate.status !== 0) throw new Error(`migration failed: ${migrate.stderr}`);
    const port = await freePort();
    tally = await startTallyProcess({
      PORT: String(port),
      DATABASE_URL: `file:${dbFile}`,
      GEONODE_SCRAPER_API_KEY: API_KEY,
      SCRAPER_API_BASE_URL: sim.url,
      TALLY_OPERATOR_PASSWORD: "chaos operator password",
      TALLY_API_TOKEN: TOKEN,
      TALLY_PUBLIC_URL: `http://127.0.0.1:${port}`,
      TALLY_RECONCILE_INTERVAL_MINUTES: "0",
      TALLY_ROTATION_SETTLE_SECONDS: "2",
      TALLY_API_RPS: "200",
      TALLY_WORKER_CONCURRENCY: "8",
      TALLY_LEASE_SECONDS: "5",
      TALLY_POLL_NO_WEBHOOK_SECONDS: "20",
      TALLY_LOG_LEVEL: "warn",
      // Outbound retries short enough that a 15 s outage is over well before the run ends.
      TALLY_FORWARD_RETRY_INITIAL_MS: "200",
      TALLY_FORWARD_RETRY_MAX_MS: "2000",
      TALLY_FORWARD_TIMEOUT_MS: "3000",
    });
    const t = tally;
    const api = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(t.url + p, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json: unknown = await res.json().catch(() => null);
      if (!res.ok) throw new Error(`${method} ${p} → ${res.status} ${JSON.stringify(json)}`);
      return json as Record<string, unknown>;
    };
    // The harness's own calls to the platform meet the same injected 429s and 5xx: retry them.
    const simCall = async (method: string, p: string, body?: unknown) => {
      for (let attempt = 1; ; attempt++) {
        const res = await fetch(sim.url + p, { method, headers: { "x-api-key": API_KEY, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
        if (res.ok) return res.json() as Promise<Record<string, unknown>>;
        if (attempt >= 20 || (res.status !== 429 && res.status < 500)) throw new Error(`simulator ${method} ${p} → ${res.status}`);
        await sleep(300);
      }
    };

    await api("POST", "/api/subscriptions/register");
    const destination = await api("POST", "/api/destinations", { url: sink.url, events: ["job.stored", "job.dead_lettered", "job.cancelled"] });
    const secret = String(destination.secret);
    await simCall("POST", "/_sim/config", { seed: o.seed, ...CHAOS_FAULTS });
    log(`chaos: ${o.jobs} jobs, ${o.kills} kills, seed ${o.seed}; simulator ${sim.url}, Tally ${t.url}`);

    // Kills happen at random points of the submission, plus at most one while the backlog drains.
    const killAt = new Set(Array.from({ length: o.kills }, () => Math.floor(random() * o.jobs)));
    const rotateAt = Math.floor(o.jobs / 2);
    let downUntil: Promise<void> | null = null;
    const crash = async () => {
      await t.kill();
      log(`chaos: Tally killed (SIGKILL) at ${((Date.now() - started) / 1000).toFixed(1)} s`);
      await sleep(200 + random() * 800);
      await t.restart();
    };

    let next = 0;
    const stats = { accepted: 0, refused: 0, submitMs: 0, cancelled: 0 };
    const submitOne = async (i: number) => {
      const kind = i % 20 < 12 ? "extract" : i % 20 < 17 ? "batch" : "crawl";
      const url = `https://chaos.example/${o.seed}/${i}`;
      const body = kind === "batch" ? { kind, urls: [url, `${url}/b`, `${url}/c`] } : kind === "crawl" ? { kind, url, depth: 2, limit: 4 } : { kind, url };
      for (let attempt = 0; attempt < 50; attempt++) {
        if (downUntil) await downUntil;
        try {
          const t0 = Date.now();
          const job = await api("POST", "/api/jobs", body);
          stats.submitMs += Date.now() - t0;
          stats.accepted++;
          // Some batch and crawl jobs are cancelled on the platform while they run.
          if (kind !== "extract" && random() < 0.05) {
            void simCall("DELETE", `/v1/${kind}/${String(job.jobId)}`).then(
              () => stats.cancelled++,
              () => undefined, // already finished (409): nothing to cancel
            );
          }
          return;
        } catch (err) {
          // Tally down, or a 429/5xx from the platform passed on: the job may or may not exist
          // there; if it does, reconciliation has to find it. Try again after a pause.
          if (attempt === 49) throw err;
          stats.refused++;
          await sleep(300);
        }
      }
    };
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < o.jobs && Date.now() < deadline) {
          const i = next++;
          if (killAt.has(i)) {
            killAt.delete(i);
            downUntil = crash().finally(() => (downUntil = null));
          }
          if (i === rotateAt) void rotate();
          if (i === Math.floor(o.jobs * 0.3)) {
            log("chaos: forwarding sink down for 15 s (connections refused)");
            outage = sink.outage(15_000);
          }
          await submitOne(i);
        }
      }),
    );
    log(`chaos: submitted ${next} jobs in ${((Date.now() - started) / 1000).toFixed(1)} s (mean ${Math.round(stats.submitMs / Math.max(1, stats.accepted))} ms per accepted POST, ${stats.refused} refused and retried, ${stats.cancelled} cancelled on the platform)`);
    for (let k = killAt.size; k > 0; k--) await crash();

    async function rotate() {
      const sql = new Database(dbFile, { readonly: true });
      const subs = sql.prepare(`SELECT id, platformId, eventType FROM "Subscription"`).all() as { id: string; platformId: string; eventType: string }[];
      sql.close();
      const byTally = subs.find((s) => s.eventType === "extract_completed");
      const elsewhere = subs.find((s) => s.eventType === "batch_completed");
      try {
        if (byTally) await api("POST", `/api/subscriptions/${byTally.id}/rotate`);
        if (elsewhere) {
          const rotated = await simCall("POST", `/v1/webhooks/${elsewhere.platformId}/rotate-secret`);
          log("chaos: batch_completed secret rotated on the platform; Tally learns it in 3 s");
          await sleep(3000);
          await api("POST", `/api/subscriptions/${elsewhere.id}/secret`, { secret: rotated.secret });
        }
        log("chaos: secrets rotated (extract by Tally, batch elsewhere)");
      } catch (err) {
        log(`chaos: rotation step failed: ${String(err)}`);
      }
    }

    await outage;
    // Drain: wait for the platform to settle, reconcile, wait for Tally's queue; repeat while
    // resubmissions create new platform jobs.
    // A round is final only when no platform job appeared during it: a resubmission made while the
    // queue drained may finish at once, its webhook still on its way, and needs one more round.
    for (let round = 1; round <= 8 && Date.now() < deadline; round++) {
      let jobsAtStart = 0;
      await waitUntil(async () => {
        const s = simStateSchema.parse(await simCall("GET", "/_sim/state"));
        const running = (s.jobs.byStatus.queued ?? 0) + (s.jobs.byStatus.processing ?? 0);
        jobsAtStart = s.jobs.total;
        return running === 0 && (s.deliveries.byStatus.pending ?? 0) === 0;
      }, deadline);
      const run = await api("POST", "/api/operations/reconcile", { olderThanSeconds: 0 });
      await waitUntil(async () => (await api("GET", `/api/operations/${String(run.runId)}`)).state !== "running", deadline);
      await waitUntil(() => queueIdle(dbFile), deadline);
      const s = simStateSchema.parse(await simCall("GET", "/_sim/state"));
      const running = (s.jobs.byStatus.queued ?? 0) + (s.jobs.byStatus.processing ?? 0);
      const appeared = s.jobs.total - jobsAtStart;
      log(`chaos: drain round ${round} done; platform jobs still running: ${running}, new during the round: ${appeared}`);
      if (running === 0 && appeared === 0) break;
    }
    const state = simStateSchema.parse(await simCall("GET", "/_sim/state"));
    const ledger = computeLedger(dbFile, state);
    ledger.forwarded = computeForwarded(dbFile, sink, secret);
    log(`chaos: finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return ledger;
  } finally {
    await tally?.stop().catch(() => undefined);
    await sim.stop().catch(() => undefined);
    await sink.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

function queueIdle(dbFile: string): boolean {
  const sql = new Database(dbFile, { readonly: true });
  const n = (sql.prepare(`SELECT COUNT(*) n FROM "QueueItem" WHERE state IN ('ready','leased')`).get() as { n: number }).n;
  sql.close();
  return n === 0;
}

async function waitUntil(check: () => boolean | Promise<boolean>, deadline: number) {
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch {
      // a transient failure (e.g. Tally restarting) is just another wait
    }
    await sleep(500);
  }
  throw new Error("chaos: timed out waiting for the pipeline to settle");
}
