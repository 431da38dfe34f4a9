// tsx --conditions=react-server bench/queue.ts [--items 20000] [--concurrency 8] [--rate 500] [--seconds 10]
//                      [--rounds 3] [--only tally-postgres,graphile,graphile-batched,tally-sqlite] [--result FILE]
// Tally's durable queue beside graphile-worker (issue 28), no-op items, one worker in this process with
// the same concurrency for each engine:
//   drain    `--items` added in batches of 100 (one transaction each), then worked to the end: items/s
//   latency  the worker running, batches of 10 added at `--rate` items/s for `--seconds`: add → start
//            p50/p99 (the time from the adding transaction's commit to the handler's first line)
// On one PostgreSQL database (its own, created and dropped here; graphile-worker in its own schema) for
// both engines, in the same run, `--rounds` times taking turns (the figures are each engine's medians,
// the ratio the median of the rounds' ratios: on a shared 2-core machine one run moves by half); then
// Tally's queue on SQLite as often. graphile-worker runs as shipped (one job fetched and completed per
// statement), and as `graphile-batched` with the batching it offers as options (a local queue of
// concurrency + 1 jobs, completions batched: completeJobBatchDelay 0); the goal's ratio is against the
// first. graphile-worker is a devDependency used by this file only.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { Logger, makeWorkerUtils, run as runGraphile, type Runner, type WorkerUtils } from "graphile-worker";
import pg from "pg";
import { z } from "zod";
import { parseConfig, setConfigForTests } from "@/lib/config";
import { db, dbReady, disconnectAll } from "@/lib/db";
import { createRegistry, defineKind, enqueueMany } from "@/lib/queue";
import { listenForEnqueues, wakeWorkers } from "@/lib/queue/wake";
import { createWorker } from "@/lib/worker/worker";
import { createChaosStore, type StoreKind } from "../scripts/chaos/store";
import { machine } from "./common";

const { values } = parseArgs({
  options: {
    items: { type: "string", default: "20000" },
    concurrency: { type: "string", default: "8" },
    rate: { type: "string", default: "500" },
    seconds: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
    only: { type: "string", default: "tally-postgres,graphile,graphile-batched,tally-sqlite" },
    result: { type: "string" },
  },
  strict: true,
});
const ITEMS = Number(values.items);
const CONCURRENCY = Number(values.concurrency);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const BATCH = 100;
const ONLY = new Set(values.only.split(",").map((x) => x.trim()));
const say = (s: string) => process.stdout.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN);
};

/** One engine: add a batch (resolves after commit), start and stop a worker that calls `seen` per item. */
type Engine = {
  name: string;
  /** Adds `n` items in one transaction carrying `t` (0: a drain item, else when the add began). */
  add(n: number, t: number): Promise<void>;
  start(seen: (stamp: number) => void): Promise<void>;
  stop(): Promise<void>;
};

type Figures = {
  engine: string;
  store: StoreKind;
  items: number;
  itemsPerSecond: number;
  /** This process's CPU time (user + system) per item drained: the worker's own cost, whatever the machine's load. */
  cpuMsPerItem: number;
  addPerSecond: number;
  latencyMs: { p50: number; p99: number; n: number };
};

/** `analyze` once the items are in, `vacuum` once they are worked off: what autovacuum would do (see main). */
async function measure(
  engine: Engine,
  store: StoreKind,
  autovacuum?: { analyze: () => Promise<unknown>; vacuum: () => Promise<unknown> },
): Promise<Figures> {
  const { analyze, vacuum } = autovacuum ?? {};
  // Drain: everything added first (timed too), then worked off.
  let done = 0;
  let finished: () => void = () => undefined;
  const all = new Promise<void>((r) => (finished = r));
  const tAdd = performance.now();
  for (let i = 0; i < ITEMS; i += BATCH) await engine.add(Math.min(BATCH, ITEMS - i), 0);
  const addSeconds = (performance.now() - tAdd) / 1000;
  await analyze?.();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await engine.start(() => {
    if (++done === ITEMS) finished();
  });
  await all;
  const drainSeconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await vacuum?.();
  // Latency: the worker is idle and listening; batches of 10 arrive at RATE items/s.
  const lat: number[] = [];
  const expected = RATE * SECONDS;
  let seen = 0;
  let latDone: () => void = () => undefined;
  const latAll = new Promise<void>((r) => (latDone = r));
  await engine.stop();
  await engine.start((stamp) => {
    if (stamp === 0) return; // a drain item left over: not part of the latency sample
    lat.push(Date.now() - stamp);
    if (++seen === expected) latDone();
  });
  await sleep(500);
  const every = (10 / RATE) * 1000;
  const tStart = Date.now();
  for (let i = 0; i < expected; i += 10) {
    const due = tStart + (i / 10) * every;
    if (due > Date.now()) await sleep(due - Date.now());
    // Stamped when the add begins: the adding transaction is part of what each engine costs.
    await engine.add(10, Date.now());
  }
  await Promise.race([latAll, sleep(60_000)]);
  await engine.stop();
  const f: Figures = {
    engine: engine.name,
    store,
    items: ITEMS,
    itemsPerSecond: Math.round(ITEMS / drainSeconds),
    cpuMsPerItem: round((cpu.user + cpu.system) / 1000 / ITEMS, 3),
    addPerSecond: Math.round(ITEMS / addSeconds),
    latencyMs: { p50: round(pct(lat, 50)), p99: round(pct(lat, 99)), n: lat.length },
  };
  say(
    `  ${f.engine} on ${store}: ${f.itemsPerSecond} items/s worked (${ITEMS} items, concurrency ${CONCURRENCY}, ${f.cpuMsPerItem} ms CPU each in this process), ${f.addPerSecond} items/s added in batches of ${BATCH}; add → start p50 ${f.latencyMs.p50} ms, p99 ${f.latencyMs.p99} ms (${f.latencyMs.n} items at ${RATE}/s)`,
  );
  return f;
}

function tallyEngine(url: string): Engine {
  const kind = defineKind({
    name: "bench_noop",
    schema: z.object({ t: z.number() }),
    async handle(p) {
      onSeen?.(p.t);
    },
  });
  const registry = createRegistry([kind]);
  let onSeen: ((stamp: number) => void) | undefined;
  let worker: ReturnType<typeof createWorker> | undefined;
  let listener: ReturnType<typeof listenForEnqueues> | undefined;
  return {
    name: "Tally's queue",
    async add(n, t) {
      await db().$transaction((tx) =>
        enqueueMany(
          tx,
          Array.from({ length: n }, () => ({ kind: "bench_noop", payload: { t } })),
        ),
      );
      // In one process the producer wakes the worker itself (as the receiver does); across processes NOTIFY.
      if (!url.startsWith("postgres")) wakeWorkers();
    },
    async start(seen) {
      onSeen = seen;
      if (url.startsWith("postgres")) {
        listener = listenForEnqueues(url);
        await listener.ready;
      }
      worker = createWorker({ registry, concurrency: CONCURRENCY, leaseMs: 30_000, idleMs: 500, owner: "bench" });
      worker.start();
    },
    async stop() {
      await worker?.stop(5000);
      await listener?.stop();
      worker = undefined;
      listener = undefined;
    },
  };
}

// graphile-worker logs a line per job by default: that would be measured too.
const quiet = new Logger(() => () => undefined);

function graphileEngine(pool: pg.Pool, utils: WorkerUtils, batched: boolean): Engine {
  let runner: Runner | undefined;
  let onSeen: ((stamp: number) => void) | undefined;
  return {
    name: batched ? "graphile-worker, batched" : "graphile-worker",
    async add(n, t) {
      // One transaction per batch: graphile-worker's SQL add_jobs, as a producer calls it inside its own.
      await utils.withPgClient(async (client) => {
        await client.query("BEGIN");
        await client.query(
          `SELECT graphile_worker.add_jobs(ARRAY(SELECT ROW('bench_noop', json_build_object('t', $1::bigint), NULL, NULL, NULL, NULL, NULL, NULL)::graphile_worker.job_spec FROM generate_series(1, $2)))`,
          [t, n],
        );
        await client.query("COMMIT");
      });
    },
    async start(seen) {
      onSeen = seen;
      runner = await runGraphile({
        pgPool: pool,
        concurrency: CONCURRENCY,
        noHandleSignals: true,
        logger: quiet,
        pollInterval: 500,
        preset: batched ? { worker: { localQueue: { size: CONCURRENCY + 1 }, completeJobBatchDelay: 0 } } : undefined,
        taskList: {
          bench_noop: async (payload) => {
            onSeen?.(Number((payload as { t: number }).t));
          },
        },
      });
    },
    async stop() {
      await runner?.stop();
      runner = undefined;
    },
  };
}

function configure(url: string) {
  setConfigForTests(
    parseConfig({
      NODE_ENV: "production",
      DATABASE_URL: url,
      TALLY_OPERATOR_PASSWORD: "bench password here",
      TALLY_SESSION_SECRET: "bench-session-secret-0123456789abcdef0123",
      TALLY_LOG_LEVEL: "error",
    }),
  );
}

async function main() {
  say(
    `${machine()}\nDurable queues, no-op items, one worker process with concurrency ${CONCURRENCY}, ${ROUNDS} round(s): Tally's queue and graphile-worker on one PostgreSQL database, Tally's queue on SQLite\n`,
  );
  const rounds: Figures[][] = [];
  const pgStore = await createChaosStore("postgres");
  // graphile-worker on a pool of ours with an error handler that stays: graphile-worker removes its
  // own when released, and pool.end() resolves before the connections have closed, so the drop below
  // (WITH FORCE) can still reach one and its error would crash this process.
  const pool = new pg.Pool({ connectionString: pgStore.url, max: 10 });
  pool.on("error", () => undefined);
  // This machine's server runs with autovacuum off, so nothing would ever give the planner statistics
  // of the fresh tables or clear the row versions a drain leaves behind: with no statistics the
  // planner can pick a plan for a few rows (Tally's claim then read every row version in the ready
  // range: add → start p50 0.9 s instead of 12 ms in a first round), and each later claim walks past
  // all the versions earlier rounds left (two per item for Tally's queue, which updates a row at
  // claim and at ack and keeps it; one for graphile-worker, which deletes it). Each engine gets what
  // autovacuum would give a busy table: ANALYZE once its items are in, VACUUM ANALYZE after the drain.
  const autovacuum = { analyze: () => pool.query("ANALYZE"), vacuum: () => pool.query("VACUUM ANALYZE") };
  try {
    configure(pgStore.url);
    await dbReady();
    const utils = await makeWorkerUtils({ pgPool: pool, logger: quiet });
    await utils.migrate();
    for (let r = 0; r < ROUNDS; r++) {
      const round: Figures[] = [];
      if (ONLY.has("tally-postgres")) round.push(await measure(tallyEngine(pgStore.url), "postgres", autovacuum));
      if (ONLY.has("graphile")) round.push(await measure(graphileEngine(pool, utils, false), "postgres", autovacuum));
      if (ONLY.has("graphile-batched"))
        round.push(await measure(graphileEngine(pool, utils, true), "postgres", autovacuum));
      rounds.push(round);
    }
    await utils.release();
    await disconnectAll();
  } finally {
    await pool.end();
    await pgStore.dispose();
  }
  if (ONLY.has("tally-sqlite")) {
    for (let r = 0; r < ROUNDS; r++) {
      const lite = await createChaosStore("sqlite");
      try {
        configure(lite.url);
        await dbReady();
        (rounds[r] ??= []).push(await measure(tallyEngine(lite.url), "sqlite"));
        await disconnectAll();
      } finally {
        await lite.dispose();
      }
    }
  }
  report(rounds);
}

const median = (xs: number[]) => pct(xs, 50);

function report(rounds: Figures[][]) {
  const ratiosTo = (engine: string) =>
    rounds.flatMap((round) => {
      const tally = round.find((r) => r.engine === "Tally's queue" && r.store === "postgres");
      const other = round.find((r) => r.engine === engine);
      return tally && other ? [tally.itemsPerSecond / other.itemsPerSecond] : [];
    });
  const ratios = ratiosTo("graphile-worker");
  const ratio = round(median(ratios), 2);
  const batchedRatios = ratiosTo("graphile-worker, batched");
  // Each engine's median figures over the rounds.
  const keys = [...new Set(rounds.flat().map((r) => `${r.engine}|${r.store}`))];
  const results: Figures[] = keys.map((key) => {
    const all = rounds.flat().filter((r) => `${r.engine}|${r.store}` === key);
    const first = all[0];
    if (!first) throw new Error(`no figures for ${key}`);
    return {
      ...first,
      itemsPerSecond: median(all.map((r) => r.itemsPerSecond)),
      cpuMsPerItem: median(all.map((r) => r.cpuMsPerItem)),
      addPerSecond: median(all.map((r) => r.addPerSecond)),
      latencyMs: {
        p50: median(all.map((r) => r.latencyMs.p50)),
        p99: median(all.map((r) => r.latencyMs.p99)),
        n: first.latencyMs.n,
      },
    };
  });
  const lines = [
    `| engine | store | items/s worked | CPU ms per item (worker process) | items/s added (batches of 100) | add → start p50 ms | p99 ms |`,
    "|---|---|---|---|---|---|---|",
    ...results.map(
      (r) =>
        `| ${r.engine} | ${r.store} | ${r.itemsPerSecond} | ${r.cpuMsPerItem} | ${r.addPerSecond} | ${r.latencyMs.p50} | ${r.latencyMs.p99} |`,
    ),
  ];
  say(
    `\nMedians of ${rounds.length} round(s):\n${lines.join("\n")}\n\nTally's queue ÷ graphile-worker on PostgreSQL: ${ratio}× the items/s (median of the rounds: ${ratios.map((x) => round(x, 2)).join(", ")}; goal ≥ 0.5)`,
  );
  if (batchedRatios.length > 0)
    say(
      `Tally's queue ÷ graphile-worker with its batching on: ${round(median(batchedRatios), 2)}× (rounds: ${batchedRatios.map((x) => round(x, 2)).join(", ")})`,
    );
  if (values.result)
    writeFileSync(
      values.result,
      `${JSON.stringify({ part: "queue", rounds: rounds.length, ratio, ratios, batchedRatios, results })}\n`,
    );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
