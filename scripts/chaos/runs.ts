// The chaos run's runs mode (`npm run chaos -- --runs 5000`): one run of N URLs through Tally under the
// simulator's faults (the chaos fault rates, 5 % item failures, and POSTs that take effect but answer
// 502: serverErrorAfterWriteRate), with Tally's servers and workers SIGKILLed while the run submits and
// while it fetches. The verdict, from Tally's database against the simulator's truth: every URL final,
// the run's counters add up to its total and match its URL rows, no URL stored twice (each stored URL
// names exactly one result row, with its URL, and no two URLs one result), and every batch job the
// platform got beyond the run's chunks and their resubmissions counted in duplicateSubmits, no more and
// no fewer. And tokens (issue 50): what the simulator charged for the chunks' jobs and their
// resubmissions equals the run's tokens.charged, and what it charged for the duplicates equals the run
// API's platform.duplicateTokens.
import { createTallyClient, TallyApiError, unwrap } from "../../lib/api-client";
import { mulberry32 } from "../../lib/simulator";
import { startBalancer, type Balancer } from "./balancer";
import { simStateSchema } from "./ledger";
import {
  CHAOS_API_KEY,
  CHAOS_TOKEN,
  chaosEnv,
  freePort,
  startFleet,
  startSimulator,
  type TallyProc,
  type WorkerProc,
} from "./processes";
import { CHAOS_FAULTS } from "./run";
import { createChaosStore, type ChaosStore, type PostgresOptions, type StoreKind } from "./store";

export type RunsChaosOptions = {
  urls: number;
  kills: number;
  seed: number;
  timeoutMs: number;
  store?: StoreKind;
  postgres?: PostgresOptions;
  servers?: number;
  workers?: number;
  apiRps?: number;
  /** URLs per chunk (default 100: many chunks, so kills and lost answers land during submission). */
  batchSize?: number;
  log?: (s: string) => void;
};

export const RUNS_FAULTS = { ...CHAOS_FAULTS, itemFailureRate: 0.05, serverErrorAfterWriteRate: 0.05 };

/** What the harness read at the end; runVerdict() judges it (pure, unit-tested). */
export type RunFacts = {
  total: number;
  state: string;
  counters: Record<"pending" | "submitted" | "stored" | "retrying" | "failed", number>;
  /** COUNT(*) of the run's URL rows by state. */
  rows: Record<string, number>;
  /** Stored URLs whose (jobId, itemKey) names no completed result row with the URL's own URL. */
  storedWithoutResult: number;
  /** Result rows named by more than one of the run's URLs. */
  resultsSharedByUrls: number;
  duplicateSubmits: number;
  /** Batch jobs on the platform carrying the run's URLs, and the resubmissions among them. */
  platformBatchJobs: number;
  platformResubmissions: number;
  /** Chunks that reached the platform (a job id was recorded for them). */
  chunksPosted: number;
  /** Chunks POSTed more than once (nothing found on the platform after a lost answer), and lost answers adopted. */
  chunksLookedFor: number;
  chunksAdopted: number;
  /** The run's batch jobs on the platform that are neither a chunk's job nor linked to one by resubmission. */
  unlinkedPlatformJobs: number;
  /** What the simulator charged: for the chunks' jobs and their resubmissions, and for the unlinked jobs. */
  platformTokens: number;
  platformDuplicateTokens: number;
  /** What Tally shows on GET /api/runs/{id}: tokens.charged and platform.duplicateTokens. */
  tallyTokens: number;
  tallyDuplicateTokens: number;
  failedByReason: Record<string, number>;
  /** GET /api/runs/{id} while the run moved, and how many of those reads did not add up to the total. */
  reads: number;
  readsNotAddingUp: number;
};

export type RunVerdict = {
  allFinal: boolean;
  countersAddUp: boolean;
  countersMatchRows: boolean;
  storedTwice: number;
  /** Platform batch jobs beyond the chunks and their resubmissions: submissions made twice. */
  extraSubmissions: number;
  duplicatesReported: boolean;
  /** The platform's tokens for the run's jobs equal Tally's, for the chunks' jobs and for the duplicates. */
  tokensMatch: boolean;
  ok: boolean;
};

const STATES = ["pending", "submitted", "stored", "retrying", "failed"] as const;

export function runVerdict(f: RunFacts): RunVerdict {
  const c = f.counters;
  const allFinal = f.state === "completed" && c.stored + c.failed === f.total;
  const countersAddUp = STATES.reduce((n, s) => n + c[s], 0) === f.total && f.readsNotAddingUp === 0;
  const countersMatchRows =
    STATES.every((s) => (f.rows[s] ?? 0) === c[s]) && Object.keys(f.rows).every((s) => STATES.some((k) => k === s));
  const storedTwice = f.storedWithoutResult + f.resultsSharedByUrls;
  const extraSubmissions = f.unlinkedPlatformJobs;
  // Exactly: a duplicate missed hides spend, one counted that the platform never ran is a false alarm.
  const duplicatesReported = f.duplicateSubmits === extraSubmissions;
  const tokensMatch = f.platformTokens === f.tallyTokens && f.platformDuplicateTokens === f.tallyDuplicateTokens;
  return {
    allFinal,
    countersAddUp,
    countersMatchRows,
    storedTwice,
    extraSubmissions,
    duplicatesReported,
    tokensMatch,
    ok: allFinal && countersAddUp && countersMatchRows && storedTwice === 0 && duplicatesReported && tokensMatch,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runRunsChaos(o: RunsChaosOptions): Promise<{ facts: RunFacts; verdict: RunVerdict }> {
  const store = await createChaosStore(o.store ?? "sqlite", o.postgres);
  try {
    return await onStore(o, store);
  } finally {
    await store.dispose().catch(() => undefined);
  }
}

async function onStore(o: RunsChaosOptions, store: ChaosStore) {
  const log = o.log ?? console.log;
  const random = mulberry32(o.seed);
  const started = Date.now();
  const at = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const deadline = started + o.timeoutMs;
  const serverCount = o.servers ?? 1;
  const workerCount = o.workers ?? 0;
  const sim = await startSimulator(o.seed);
  const servers: TallyProc[] = [];
  const workers: WorkerProc[] = [];
  let balancer: Balancer | undefined;
  try {
    const ports = await Promise.all(Array.from({ length: serverCount }, () => freePort()));
    if (serverCount > 1) balancer = await startBalancer(ports.map((p) => `http://127.0.0.1:${p}`));
    const common = chaosEnv({
      storeUrl: store.url,
      simUrl: sim.url,
      publicUrl: balancer?.url ?? `http://127.0.0.1:${ports[0]}`,
      apiRps: o.apiRps ?? 200,
    });
    const fleet = await startFleet(common, ports, workerCount);
    servers.push(...fleet.servers);
    workers.push(...fleet.workers);
    const entry = balancer?.url ?? servers[0]!.url;
    const tally = createTallyClient({ baseUrl: entry, token: CHAOS_TOKEN });
    // Tally down or restarting (no answer, or a 5xx from it or the balancer): try again, as an operator would.
    const persist = async <T>(call: () => Promise<T>): Promise<T> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await call();
        } catch (err) {
          if (attempt >= 60 || (err instanceof TallyApiError && err.status < 500)) throw err;
        }
        await sleep(500);
      }
    };
    const simGet = async (p: string) => {
      for (let attempt = 1; ; attempt++) {
        const res = await fetch(sim.url + p, { headers: { "x-api-key": CHAOS_API_KEY } });
        if (res.ok) return (await res.json()) as unknown;
        if (attempt >= 30 || (res.status !== 429 && res.status < 500))
          throw new Error(`simulator GET ${p} → ${res.status}`);
        await sleep(300);
      }
    };

    await persist(() => unwrap(tally.POST("/api/subscriptions/register")));
    const cfg = await fetch(`${sim.url}/_sim/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seed: o.seed, ...RUNS_FAULTS }),
    });
    if (!cfg.ok) throw new Error(`simulator config → ${cfg.status}`);
    const list = Array.from({ length: o.urls }, (_, i) => `https://runs.chaos.example/${o.seed}/${i}`).join("\n");
    // The list as text/plain, its options in the query, as `curl --data-binary @urls.txt` would send it.
    const created = await persist(() =>
      unwrap(
        tally.POST("/api/runs", {
          params: { query: { name: "chaos", batchSize: o.batchSize ?? 100 } },
          body: list,
          bodySerializer: (text) => text,
          headers: { "content-type": "text/plain" },
        }),
      ),
    );
    const runId = created.id;
    log(
      `chaos runs: run ${runId} of ${o.urls} URLs in chunks of ${o.batchSize ?? 100}, ${o.kills} kills, seed ${o.seed}, ${store.kind}` +
        (workerCount || serverCount > 1 ? ` (${serverCount} servers, ${workerCount} workers)` : ""),
    );

    let crashes = 0;
    const crash = async (when: string) => {
      const k = crashes++;
      if (workers.length > 0 && k % 2 === 1) {
        const i = Math.floor(random() * workers.length);
        await workers[i]!.kill();
        log(`chaos runs: worker ${i + 1} killed (SIGKILL) at ${at()}, ${when}`);
        await sleep(200 + random() * 800);
        workers[i]!.restart();
        return;
      }
      const i = Math.floor(random() * servers.length);
      await servers[i]!.kill();
      log(`chaos runs: ${servers.length > 1 ? `server ${i + 1}` : "Tally"} killed (SIGKILL) at ${at()}, ${when}`);
      await sleep(200 + random() * 800);
      await servers[i]!.restart();
    };
    // Half the kills while chunks go out, half while results come in, at random points of each.
    const submitKills = Array.from({ length: Math.ceil(o.kills / 2) }, () => 0.1 + random() * 0.8).sort();
    const fetchKills = Array.from({ length: Math.floor(o.kills / 2) }, () => 0.1 + random() * 0.8).sort();
    let reads = 0;
    let notAddingUp = 0;
    let lastReconcile = Date.now();
    for (;;) {
      if (Date.now() > deadline) throw new Error("chaos runs: timed out before the run completed");
      let run;
      try {
        run = await unwrap(tally.GET("/api/runs/{runId}", { params: { path: { runId } } }));
      } catch {
        await sleep(500);
        continue;
      }
      reads++;
      const { counts, chunks, total } = run;
      if (STATES.reduce((n, s) => n + counts[s], 0) !== total) notAddingUp++;
      if (run.state === "completed" || run.state === "cancelled") break;
      const submittedShare = chunks.total === 0 ? 0 : chunks.submitted / chunks.total;
      const finalShare = (counts.stored + counts.failed) / total;
      if (submitKills.length > 0 && submittedShare >= submitKills[0]! && run.state === "submitting") {
        submitKills.shift();
        await crash(`${chunks.submitted} of ${chunks.total} chunks submitted`);
      } else if (fetchKills.length > 0 && finalShare >= fetchKills[0]!) {
        fetchKills.shift();
        await crash(`${counts.stored} URLs stored, ${counts.failed} failed`);
      }
      // The safety net the deployment runs on a schedule: when the platform is idle and the run is
      // not done, reconcile (a webhook dropped for good, a worker killed mid-fetch).
      if (Date.now() - lastReconcile > 60_000) {
        const s = simStateSchema.parse(await simGet("/_sim/state"));
        if ((s.jobs.byStatus.queued ?? 0) + (s.jobs.byStatus.processing ?? 0) === 0) {
          await unwrap(tally.POST("/api/operations/reconcile", { body: { olderThanSeconds: 0 } })).catch(() => null);
          log(`chaos runs: platform idle, run not complete: reconciliation started at ${at()}`);
        }
        lastReconcile = Date.now();
      }
      await sleep(500);
    }
    for (let left = submitKills.length + fetchKills.length; left > 0; left--)
      await crash("after the run (kills not reached in time)");
    log(`chaos runs: run final at ${at()}; ${reads} reads, ${notAddingUp} not adding up`);
    // Tally's figures as its API shows them, read again after the kills (a copy may have settled since).
    const shown = await persist(() => unwrap(tally.GET("/api/runs/{runId}", { params: { path: { runId } } })));
    const facts = {
      ...(await readFacts(store, runId, simGet)),
      tallyTokens: shown.tokens.charged,
      tallyDuplicateTokens: shown.platform?.duplicateTokens ?? 0,
      reads,
      readsNotAddingUp: notAddingUp,
    };
    return { facts, verdict: runVerdict(facts) };
  } finally {
    await Promise.all([...servers, ...workers].map((p) => p.stop().catch(() => undefined)));
    await balancer?.close().catch(() => undefined);
    await sim.stop().catch(() => undefined);
  }
}

async function readFacts(
  store: ChaosStore,
  runId: string,
  simGet: (p: string) => Promise<unknown>,
): Promise<Omit<RunFacts, "reads" | "readsNotAddingUp" | "tallyTokens" | "tallyDuplicateTokens">> {
  const num = (v: unknown) => Number(v ?? 0);
  const [run] = await store.all<Record<string, unknown>>(`SELECT * FROM "Run" WHERE "id" = ?`, runId);
  if (!run) throw new Error(`no run ${runId}`);
  const rows = Object.fromEntries(
    (
      await store.all<{ state: string; n: unknown }>(
        `SELECT "state", COUNT(*) n FROM "RunUrl" WHERE "runId" = ? GROUP BY "state"`,
        runId,
      )
    ).map((r) => [r.state, num(r.n)]),
  );
  const [missing] = await store.all<{ n: unknown }>(
    `SELECT COUNT(*) n FROM "RunUrl" u WHERE u."runId" = ? AND u."state" = 'stored' AND NOT EXISTS (
       SELECT 1 FROM "Result" r WHERE r."jobId" = u."jobId" AND r."itemKey" = u."itemKey" AND r."status" = 'completed' AND r."url" = u."url")`,
    runId,
  );
  const [shared] = await store.all<{ n: unknown }>(
    `SELECT COUNT(*) n FROM (SELECT "jobId", "itemKey" FROM "RunUrl" WHERE "runId" = ? AND "state" = 'stored'
       GROUP BY "jobId", "itemKey" HAVING COUNT(*) > 1) x`,
    runId,
  );
  const [posted] = await store.all<{ n: unknown }>(
    `SELECT COUNT(*) n FROM "RunChunk" WHERE "runId" = ? AND "jobId" IS NOT NULL`,
    runId,
  );
  const failedByReason = Object.fromEntries(
    (
      await store.all<{ code: string | null; n: unknown }>(
        `SELECT "errorCode" code, COUNT(*) n FROM "RunUrl" WHERE "runId" = ? AND "state" = 'failed' GROUP BY "errorCode"`,
        runId,
      )
    ).map((r) => [r.code ?? "(none)", num(r.n)]),
  );
  // The platform's truth: every batch job it holds with a chunk's first URL (a chunk posted twice, or
  // resubmitted, carries the same URLs), found through the list's url filter.
  const state = simStateSchema.parse(await simGet("/_sim/state"));
  const firsts = await store.all<{ firstUrl: string }>(
    `SELECT DISTINCT "firstUrl" FROM "RunChunk" WHERE "runId" = ?`,
    runId,
  );
  const jobs = new Set<string>();
  for (const { firstUrl } of firsts) {
    for (let page = 1; ; page++) {
      const doc = (await simGet(`/v1/batch/jobs?url=${encodeURIComponent(firstUrl)}&page=${page}&page_size=50`)) as {
        jobs: { job_id: string }[];
        page_count: number;
      };
      for (const j of doc.jobs) jobs.add(j.job_id);
      if (page >= doc.page_count) break;
    }
  }
  const [lookedFor] = await store.all<{ n: unknown }>(
    `SELECT COUNT(*) n FROM "RunChunk" WHERE "runId" = ? AND "postAttempts" > 1`,
    runId,
  );
  const [adopted] = await store.all<{ n: unknown }>(
    `SELECT COUNT(*) n FROM "JobEvent" WHERE "type" = 'note' AND "detail" LIKE ? AND "detail" LIKE ?`,
    `%"run":"${runId}"%`,
    "%adopted%",
  );
  const platformResubmissions = [...jobs].filter((id) => state.perJob[id]?.resubmittedFrom).length;
  // The jobs Tally accounts for: its chunks' jobs and, both ways along the platform's resubmission
  // links, the jobs they came from or became. Any other is a submission made twice.
  const known = new Set(
    (
      await store.all<{ jobId: string }>(
        `SELECT "jobId" FROM "RunChunk" WHERE "runId" = ? AND "jobId" IS NOT NULL`,
        runId,
      )
    ).map((r) => r.jobId),
  );
  for (let grew = true; grew;) {
    grew = false;
    for (const id of jobs) {
      const from = state.perJob[id]?.resubmittedFrom;
      if (!from) continue;
      if (known.has(id) !== known.has(from)) {
        known.add(id);
        known.add(from);
        grew = true;
      }
    }
  }
  const unlinked = [...jobs].filter((id) => !known.has(id));
  const tokensOf = (ids: string[]) => ids.reduce((n, id) => n + (state.perJob[id]?.tokensCharged ?? 0), 0);
  return {
    total: num(run.total),
    state: String(run.state),
    counters: {
      pending: num(run.pending),
      submitted: num(run.submitted),
      stored: num(run.stored),
      retrying: num(run.retrying),
      failed: num(run.failed),
    },
    rows,
    storedWithoutResult: num(missing?.n),
    resultsSharedByUrls: num(shared?.n),
    duplicateSubmits: num(run.duplicateSubmits),
    platformBatchJobs: jobs.size,
    platformResubmissions,
    unlinkedPlatformJobs: unlinked.length,
    platformTokens: tokensOf([...jobs].filter((id) => known.has(id))),
    platformDuplicateTokens: tokensOf(unlinked),
    chunksLookedFor: num(lookedFor?.n),
    chunksAdopted: num(adopted?.n),
    chunksPosted: num(posted?.n),
    failedByReason,
  };
}

export function printRunsLedger(facts: RunFacts, v: RunVerdict, log: (s: string) => void = console.log) {
  const c = facts.counters;
  log(`  run state                          ${facts.state}`);
  log(`  URLs                               ${facts.total}`);
  log(`  stored / failed                    ${c.stored} / ${c.failed}`);
  log(`  still pending/submitted/retrying   ${c.pending} / ${c.submitted} / ${c.retrying}`);
  log(`  failed by reason                   ${JSON.stringify(facts.failedByReason)}`);
  log(
    `  counters add up to total           ${v.countersAddUp ? "yes" : "NO"} (the end and ${facts.reads} reads while it moved, ${facts.readsNotAddingUp} not adding up)`,
  );
  log(`  counters match the URL rows        ${v.countersMatchRows ? "yes" : `NO ${JSON.stringify(facts.rows)}`}`);
  log(`  URLs stored twice                  ${v.storedTwice}`);
  log(
    `  platform batch jobs with run URLs  ${facts.platformBatchJobs} (chunks posted ${facts.chunksPosted}, resubmissions ${facts.platformResubmissions})`,
  );
  log(
    `  lost answers adopted               ${facts.chunksAdopted} (found on the platform's list, not posted again); chunks POSTed twice: ${facts.chunksLookedFor}`,
  );
  log(`  submissions made twice (platform)  ${v.extraSubmissions}`);
  log(
    `  duplicateSubmits (Tally's count)   ${facts.duplicateSubmits}${v.duplicatesReported ? "" : " (NOT the platform's)"}`,
  );
  log(
    `  tokens, chunks' jobs               platform ${facts.platformTokens}, Tally ${facts.tallyTokens}${facts.platformTokens === facts.tallyTokens ? "" : " (DIFFER)"}`,
  );
  log(
    `  tokens, duplicates                 platform ${facts.platformDuplicateTokens}, Tally ${facts.tallyDuplicateTokens}${facts.platformDuplicateTokens === facts.tallyDuplicateTokens ? "" : " (DIFFER)"}`,
  );
}
