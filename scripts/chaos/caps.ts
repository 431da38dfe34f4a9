// The caps race (issue 50 item 2): `npm run chaos -- --caps 20 [--store postgres] [--seed 1]`.
// Three starter processes (scripts/chaos/caps-starter.ts) start, in the same second, every round: the two
// cancelled runs of each of three collections retried, a manual start and the queued tick of each collection,
// and one capped run each; two `npm run worker` processes submit and settle them against the simulator
// (pages blocked at random, so URLs climb the escalation ladder and cost up to four tokens). While they run,
// the harness samples the database: charged + reserved never above a run's maxTokens nor above a
// collection's monthly cap, at any sample. When the round's runs are final, every run stopped at a cap says
// which cap (capHit) and its capReason, and every URL failed with token_cap belongs to such a run.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { chaosEnv, startSimulator, startWorkerProcess, type WorkerProc } from "./processes";
import { createChaosStore, type ChaosStore, type PostgresOptions, type StoreKind } from "./store";

export type CapsRaceOptions = {
  rounds: number;
  seed: number;
  store?: StoreKind;
  postgres?: PostgresOptions;
  starters?: number;
  workers?: number;
  /** Per round: collections, each of `urls` URLs with a monthly cap of `monthly`. */
  collections?: number;
  urls?: number;
  monthly?: number;
  roundTimeoutMs?: number;
  log?: (line: string) => void;
};

export type CapsRound = {
  round: number;
  started: Record<string, number>;
  runs: number;
  samples: number;
  /** Largest charged + reserved over cap seen at any sample (≤ 0: never over). */
  worstRunOver: number;
  worstMonthOver: number;
  /** Most runs of one collection active at once (drawing on one month) at any sample. */
  mostSharing: number;
  /** Runs that stopped at a cap, by the cap they name; `unnamed`: stopped without saying which. */
  stopped: Record<string, number>;
  unnamed: number;
  tokenCapWithoutReason: number;
};

export type CapsRaceResult = { rounds: CapsRound[]; ok: boolean; seconds: number };

type Collection = { id: string; cancelled: string[] };
type Starter = { send(o: unknown): void; next(op: string): Promise<Record<string, unknown>>; stop(): Promise<void> };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startStarter(env: Record<string, string>): Starter {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=react-server", path.join("scripts", "chaos", "caps-starter.ts")],
    { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] },
  );
  let err = "";
  child.stderr?.on("data", (d: Buffer) => (err = (err + d.toString()).slice(-5000)));
  const inbox: Record<string, unknown>[] = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (!line.startsWith("@caps ")) return;
    inbox.push(JSON.parse(line.slice(6)) as Record<string, unknown>);
    waiters.splice(0).forEach((w) => w());
  });
  return {
    send: (o) => child.stdin?.write(`${JSON.stringify(o)}\n`),
    async next(op) {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const i = inbox.findIndex((m) => m.op === op || m.op === "error");
        if (i >= 0) {
          const m = inbox.splice(i, 1)[0]!;
          if (m.op === "error") throw new Error(`starter: ${String(m.error)}`);
          return m;
        }
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`starter gave no "${op}" (exit ${child.exitCode}): ${err}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 500);
        });
      }
    },
    async stop() {
      child.stdin?.end(`${JSON.stringify({ op: "stop" })}\n`);
      for (let i = 0; i < 50 && child.exitCode === null; i++) await sleep(100);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

type Sample = { runOver: number; monthOver: number; active: number; sharing: number };

/** One reading of the round's spend, each a single statement (one snapshot). */
async function sample(store: ChaosStore, round: string, monthly: number): Promise<Sample> {
  const runs = await store.all<{ over: number | null; active: number }>(
    `SELECT MAX(CASE WHEN "maxTokens" IS NULL THEN NULL ELSE "tokensCharged" + "tokensReserved" - "maxTokens" END) AS "over",
            SUM(CASE WHEN "state" = 'active' THEN 1 ELSE 0 END) AS "active"
     FROM "Run" WHERE ("name" LIKE ? OR "name" LIKE ?)`,
    `${round}c%`,
    `${round}p%`,
  );
  const months = await store.all<{ used: number; active: number }>(
    `SELECT SUM(r."tokensCharged" + r."tokensReserved") AS "used",
            SUM(CASE WHEN r."state" = 'active' THEN 1 ELSE 0 END) AS "active" FROM "Run" r JOIN "Collection" c ON c."id" = r."collectionId"
     WHERE c."name" LIKE ? GROUP BY r."collectionId"`,
    `${round}c%`,
  );
  return {
    runOver: Number(runs[0]?.over ?? -Infinity),
    monthOver: Math.max(-Infinity, ...months.map((m) => Number(m.used) - monthly)),
    active: Number(runs[0]?.active ?? 0),
    sharing: Math.max(0, ...months.map((m) => Number(m.active))),
  };
}

export async function runCapsRace(o: CapsRaceOptions): Promise<CapsRaceResult> {
  const store = await createChaosStore(o.store ?? "sqlite", o.postgres);
  try {
    return await race(o, store);
  } finally {
    await store.dispose().catch(() => undefined);
  }
}

async function race(o: CapsRaceOptions, store: ChaosStore): Promise<CapsRaceResult> {
  const log = o.log ?? console.log;
  const began = Date.now();
  const collections = o.collections ?? 3;
  const urls = o.urls ?? 12;
  const monthly = o.monthly ?? 12;
  const sim = await startSimulator(o.seed);
  const starters: Starter[] = [];
  const workers: WorkerProc[] = [];
  const rounds: CapsRound[] = [];
  try {
    const cfg = await fetch(`${sim.url}/_sim/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        seed: o.seed,
        jobDurationMs: [30, 250],
        hostileShare: 0,
        blockPageRate: 0.5,
        residentialUnblockShare: 1,
      }),
    });
    if (!cfg.ok) throw new Error(`simulator config → ${cfg.status}`);
    const common = chaosEnv({ storeUrl: store.url, simUrl: sim.url, publicUrl: "http://127.0.0.1:9", apiRps: 1000 });
    const polling = {
      TALLY_DELIVERY_MODE: "polling",
      TALLY_POLL_INITIAL_MS: "50",
      TALLY_POLL_MAX_MS: "200",
      TALLY_WORKER_CONCURRENCY: "3",
      TALLY_LEASE_SECONDS: "10",
      // The schedule's own pass rarely: the queued ticks are fired by the starters, in the same second.
      TALLY_COLLECTIONS_CHECK_MS: "60000",
    };
    for (let i = 0; i < (o.starters ?? 3); i++) starters.push(startStarter({ ...common, TALLY_SCHEDULER: "off" }));
    await Promise.all(starters.map((s) => s.next("ready")));
    // Every round's collections and cancelled runs first, before any worker could send their chunks.
    const sets: Collection[][] = [];
    for (let r = 1; r <= o.rounds; r++) {
      starters[0]!.send({ op: "setup", round: r, collections, urls, monthly });
      sets.push((await starters[0]!.next("setup")).collections as Collection[]);
    }
    // The workers poll the platform for the chunks' jobs and run the collections' schedule (queued ticks too).
    for (let i = 0; i < (o.workers ?? 2); i++)
      workers.push(startWorkerProcess({ ...common, ...polling, TALLY_SCHEDULER: "on" }));
    for (let r = 1; r <= o.rounds; r++) {
      const tag = `r${r}`;
      const set = sets[r - 1]!;
      const at = Date.now() + 800;
      const standalone = { urls: 10, maxTokens: 12, batchSize: 4 };
      for (const s of starters) s.send({ op: "start", round: r, at, collections: set, standalone });
      const answers = await Promise.all(starters.map((s) => s.next("start")));
      const started: Record<string, number> = {};
      for (const a of answers)
        for (const [k, v] of Object.entries(a.started as Record<string, number>)) started[k] = (started[k] ?? 0) + v;
      let worstRun = -Infinity;
      let worstMonth = -Infinity;
      let samples = 0;
      let sharing = 0;
      const deadline = Date.now() + (o.roundTimeoutMs ?? 180_000);
      // Sampled from the start: runs already submitting while the last starters answer.
      for (;;) {
        const s = await sample(store, tag, monthly);
        samples++;
        worstRun = Math.max(worstRun, s.runOver);
        worstMonth = Math.max(worstMonth, s.monthOver);
        sharing = Math.max(sharing, s.sharing);
        if (s.active === 0) {
          starters[0]!.send({ op: "clear", round: r, collections: set });
          await starters[0]!.next("clear");
          // A tick fired between the last sample and the clear started a run: sample until it is final too.
          if ((await sample(store, tag, monthly)).active === 0) break;
        }
        if (Date.now() > deadline) throw new Error(`round ${r}: ${s.active} runs still active after the timeout`);
        await sleep(20);
      }
      const stoppedRows = await store.all<{ capHit: string | null }>(
        `SELECT "capHit" FROM "Run" WHERE ("name" LIKE ? OR "name" LIKE ?) AND "capReason" IS NOT NULL`,
        `${tag}c%`,
        `${tag}p%`,
      );
      const stopped: Record<string, number> = {};
      for (const row of stoppedRows) if (row.capHit) stopped[row.capHit] = (stopped[row.capHit] ?? 0) + 1;
      const unnamed = stoppedRows.filter((row) => !row.capHit).length;
      const orphans = await store.all<{ n: number }>(
        `SELECT COUNT(*) AS "n" FROM "RunUrl" u JOIN "Run" r ON r."id" = u."runId"
         WHERE (r."name" LIKE ? OR r."name" LIKE ?) AND u."errorCode" = 'token_cap' AND r."capReason" IS NULL`,
        `${tag}c%`,
        `${tag}p%`,
      );
      const runs = await store.all<{ n: number }>(
        `SELECT COUNT(*) AS "n" FROM "Run" WHERE "name" LIKE ? OR "name" LIKE ?`,
        `${tag}c%`,
        `${tag}p%`,
      );
      const round: CapsRound = {
        round: r,
        started,
        runs: Number(runs[0]?.n ?? 0),
        samples,
        worstRunOver: worstRun,
        worstMonthOver: worstMonth,
        mostSharing: sharing,
        stopped,
        unnamed,
        tokenCapWithoutReason: Number(orphans[0]?.n ?? 0),
      };
      rounds.push(round);
      log(
        `caps race round ${r}: started ${JSON.stringify(started)} (${round.runs} runs), ${samples} samples, ` +
          `worst over a run's cap ${worstRun}, over a month's ${worstMonth}, up to ${sharing} runs of a collection active at once, stopped at ${JSON.stringify(stopped)}` +
          (unnamed ? `, ${unnamed} stopped without naming the cap` : "") +
          (round.tokenCapWithoutReason ? `, ${round.tokenCapWithoutReason} token_cap URLs of runs with no reason` : ""),
      );
    }
  } finally {
    await Promise.all(starters.map((s) => s.stop().catch(() => undefined)));
    await Promise.all(workers.map((w) => w.stop().catch(() => undefined)));
    await sim.stop().catch(() => undefined);
  }
  const ok = rounds.every(
    (r) => r.worstRunOver <= 0 && r.worstMonthOver <= 0 && r.unnamed === 0 && r.tokenCapWithoutReason === 0,
  );
  return { rounds, ok, seconds: Math.round((Date.now() - began) / 1000) };
}
