// npm run chaos -- [--jobs 2000] [--kills 3] [--seed 1] [--timeout-minutes 20]
//                  [--store sqlite|postgres] [--servers 1] [--workers 0] [--api-rps 200] [--postgres-url URL]
//                  [--delivery webhooks|polling] [--broker nats|redis|rabbitmq|none]
//                  [--body-bytes 20000,200000] [--sweep-grace-seconds 15] [--body-store file|s3]
// npm run chaos -- --runs 5000 [--batch-size 100] [--kills 4] [--seed 1] [--store …] [--servers N] [--workers M]
//                  [--soak N]
// npm run chaos -- --caps 20 [--seed 1] [--store sqlite|postgres]
// Proves "none lost, none doubled" under faults, crashes and a rotation, and that the platform never
// saw more than TALLY_API_RPS × 5 calls in any 5-second window, and that a postgres sink and a broker
// sink (--broker, default nats) hold every outcome event once in effect; exits non-zero otherwise.
// --runs N: the runs mode (scripts/chaos/runs.ts): one run of N URLs under faults and kills during
// submission and fetching; every URL final, counts adding up, none stored twice, duplicates reported,
// and the platform's tokens for the run's jobs equal Tally's. --soak N: N seeds one after another (--seed,
// --seed + 1, …), one line per seed and a total (scripts/chaos/soak.ts); exits non-zero if any failed.
// --cpu-load (any mode): busy-loop processes, one per core, while the run lasts (scripts/chaos/cpu-load.ts).
// --body-bytes MIN,MAX: the body store mode (scripts/chaos/bodies.ts): pages of that many bytes of
// markdown (html about 3×), kills while a body is being put, a sweeper with a short grace
// (--sweep-grace-seconds) killed at random; at the end every result's body readable and hash-correct,
// and nothing unnamed left after a sweep past the grace. --body-store s3 puts the bodies into an
// S3-compatible server (s3rver) the run starts, reached through a proxy that marks uploads under way.
// --caps N: the caps race (scripts/chaos/caps.ts): N rounds of three processes starting capped runs and
// collections' runs in the same second; charged + reserved never over a cap at any sample, and every run
// stopped at a cap says which.
// --postgres-url is the server's maintenance database: the run creates a database of its own there
// and drops it at the end.
import { existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import { type BodiesOptions, printBodies } from "./chaos/bodies";
import { printLedger } from "./chaos/ledger";
import { runChaos } from "./chaos/run";
import { BROKERS, type Broker } from "./chaos/sinks";
import { printRunsLedger, runRunsChaos, type RunsChaosOptions } from "./chaos/runs";
import { runCapsRace } from "./chaos/caps";
import { DEFAULT_POSTGRES_ADMIN_URL } from "./chaos/store";
import { startCpuLoad } from "./chaos/cpu-load";
import { formatSoakRow, formatSoakTotal, runSoak } from "./chaos/soak";
import { serverBundle } from "./server-bundle.mjs";

const { values } = parseArgs({
  options: {
    jobs: { type: "string", default: "2000" },
    kills: { type: "string", default: "3" },
    seed: { type: "string", default: String(Date.now() % 100000) },
    "timeout-minutes": { type: "string", default: "20" },
    store: { type: "string", default: "sqlite" },
    servers: { type: "string", default: "1" },
    workers: { type: "string", default: "0" },
    "api-rps": { type: "string", default: "200" },
    "postgres-url": { type: "string", default: DEFAULT_POSTGRES_ADMIN_URL },
    delivery: { type: "string", default: "webhooks" },
    broker: { type: "string", default: "nats" },
    runs: { type: "string" },
    caps: { type: "string" },
    "batch-size": { type: "string", default: "100" },
    "body-bytes": { type: "string" },
    "sweep-grace-seconds": { type: "string", default: "15" },
    "body-store": { type: "string", default: "file" },
    soak: { type: "string" },
    "cpu-load": { type: "boolean", default: false },
  },
});
const int = (name: string, v: string | undefined, min: number) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    console.error(`chaos: --${name} must be an integer ≥ ${min}`);
    process.exit(2);
  }
  return n;
};
const jobs = int("jobs", values.jobs, 1);
const kills = int("kills", values.kills, 0);
const seed = int("seed", values.seed, 0);
const timeoutMs = int("timeout-minutes", values["timeout-minutes"], 1) * 60_000;
const servers = int("servers", values.servers, 1);
const workers = int("workers", values.workers, 0);
const apiRps = int("api-rps", values["api-rps"], 1);
const store = values.store;
if (store !== "sqlite" && store !== "postgres") {
  console.error('chaos: --store must be "sqlite" or "postgres"');
  process.exit(2);
}

const delivery = values.delivery;
if (delivery !== "webhooks" && delivery !== "polling") {
  console.error('chaos: --delivery must be "webhooks" or "polling"');
  process.exit(2);
}

const bodyBackend = values["body-store"];
if (bodyBackend !== "file" && bodyBackend !== "s3") {
  console.error('chaos: --body-store must be "file" or "s3"');
  process.exit(2);
}
if (bodyBackend === "s3" && values["body-bytes"] === undefined) {
  console.error("chaos: --body-store s3 goes with --body-bytes MIN,MAX (the body store mode)");
  process.exit(2);
}
let bodies: BodiesOptions | undefined;
if (values["body-bytes"] !== undefined) {
  const [min, max] = values["body-bytes"].split(",").map(Number);
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max < min || max > 16_000_000) {
    console.error("chaos: --body-bytes must be MIN,MAX whole numbers of bytes, 0 ≤ MIN ≤ MAX ≤ 16000000");
    process.exit(2);
  }
  bodies = {
    bodyBytes: [min, max],
    graceMs: int("sweep-grace-seconds", values["sweep-grace-seconds"], 1) * 1000,
    backend: bodyBackend,
  };
}

if (values.soak !== undefined && values.runs === undefined) {
  console.error("chaos: --soak N goes with --runs N (the runs mode)");
  process.exit(2);
}
const soak = values.soak === undefined ? undefined : int("soak", values.soak, 1);
const load = values["cpu-load"] ? startCpuLoad() : undefined;
if (load) console.log(`chaos: --cpu-load: ${load.processes} busy-loop processes, one per core, while the run lasts`);
// Every way out stops the load first.
const exit = (code: number) => {
  void (load?.stop() ?? Promise.resolve()).finally(() => process.exit(code));
};

const broker = values.broker as Broker;
if (!BROKERS.includes(broker)) {
  console.error(`chaos: --broker must be one of ${BROKERS.join(", ")}`);
  exit(2);
}

if (values.caps !== undefined) {
  const rounds = int("caps", values.caps, 1);
  runCapsRace({ rounds, seed, store, postgres: { adminUrl: values["postgres-url"] } })
    .then((result) => {
      const over = result.rounds.filter((r) => r.worstRunOver > 0 || r.worstMonthOver > 0).length;
      const stopped = result.rounds.reduce((n, r) => n + Object.values(r.stopped).reduce((a, b) => a + b, 0), 0);
      console.log(
        result.ok
          ? `\nOK: ${rounds} rounds in ${result.seconds} s, no cap crossed at any sample, ${stopped} runs stopped at a cap, each naming it.`
          : `\nFAILED: ${over} of ${rounds} rounds crossed a cap, or a stopped run did not name its cap (see the rounds above).`,
      );
      exit(result.ok ? 0 : 1);
    })
    .catch((err) => {
      console.error(`chaos: ${err instanceof Error ? err.message : String(err)}`);
      exit(1);
    });
} else {
  // The servers run `npm start`'s bundle: build it first if it is missing.
  if (!existsSync(serverBundle)) execFileSync("npm", ["run", "build"], { stdio: "inherit" });
  if (values.runs !== undefined) {
    const urls = int("runs", values.runs, 1);
    const batchSize = int("batch-size", values["batch-size"], 1);
    const options: Omit<RunsChaosOptions, "seed"> = {
      urls,
      batchSize,
      kills,
      timeoutMs,
      store,
      servers,
      workers,
      apiRps,
      postgres: { adminUrl: values["postgres-url"] },
    };
    if (soak !== undefined)
      runSoak(options, seed, soak)
        .then((rows) => {
          console.log(`\nSoak: ${soak} seeds from ${seed}, ${urls} URLs each${load ? ", --cpu-load" : ""}:`);
          for (const r of rows) console.log(formatSoakRow(r));
          console.log(formatSoakTotal(rows));
          exit(rows.every((r) => r.ok) ? 0 : 1);
        })
        .catch((err) => {
          console.error(`chaos: ${err instanceof Error ? err.message : String(err)}`);
          exit(1);
        });
    else
      runRunsChaos({ ...options, seed })
        .then(({ facts, verdict }) => {
          console.log("\nRun ledger (Tally's database against the simulator's truth):");
          printRunsLedger(facts, verdict);
          console.log(
            verdict.ok
              ? `\nOK: every URL final, counts add up, none stored twice, ${verdict.extraSubmissions} duplicate submission(s) on the platform and ${facts.duplicateSubmits} reported, tokens as the platform charged them (${facts.platformTokens} + ${facts.platformDuplicateTokens} for duplicates).`
              : "\nFAILED: see the run ledger above.",
          );
          exit(verdict.ok ? 0 : 1);
        })
        .catch((err) => {
          console.error(`chaos: ${err instanceof Error ? err.message : String(err)}`);
          exit(1);
        });
  } else
    runChaos({
      jobs,
      kills,
      seed,
      timeoutMs,
      store,
      servers,
      workers,
      apiRps,
      delivery,
      broker,
      bodies,
      postgres: { adminUrl: values["postgres-url"] },
    })
      .then((ledger) => {
        console.log("\nLedger (Tally's database against the simulator's truth):");
        printLedger(ledger);
        if (ledger.bodies) {
          console.log("\nBody store:");
          printBodies(ledger.bodies);
        }
        const bodiesOk = ledger.bodies?.ok ?? true;
        const ok = ledger.lost === 0 && ledger.storedTwice === 0 && ledger.wrongOutcome === 0;
        const forwarded = ledger.forwarded?.ok ?? false;
        const withinBudget = ledger.calls?.ok ?? false;
        console.log(
          ok ? "\nOK: none lost, none doubled." : "\nFAILED: jobs were lost, doubled or given the wrong outcome.",
        );
        console.log(
          forwarded
            ? "OK: every outcome forwarded, signed, once per webhook-id."
            : "FAILED: outcome events missing, unexpected or badly signed at the sink.",
        );
        console.log(
          withinBudget
            ? `OK: at most ${ledger.calls?.worstWindow} platform calls in any 5 s (limit ${ledger.calls?.limit}).`
            : `FAILED: ${ledger.calls?.worstWindow} platform calls in one 5 s window, over TALLY_API_RPS × 5 = ${ledger.calls?.limit}.`,
        );
        const sinks = ledger.sinks ?? [];
        const sinksOk = sinks.every((s) => s.ok);
        const ran = sinks.filter((s) => !s.skipped).map((s) => s.type);
        console.log(
          sinksOk
            ? `OK: every outcome event once in effect in ${ran.join(" and ") || "no sink"}${sinks.some((s) => s.skipped) ? " (A SINK WAS SKIPPED: see above)" : ""}.`
            : `FAILED: outcome events missing, doubled or unexpected in ${sinks
                .filter((s) => !s.ok)
                .map((s) => s.type)
                .join(" and ")}.`,
        );
        if (ledger.bodies)
          console.log(
            bodiesOk
              ? "OK: every stored result's body is there, readable and hash-correct; nothing unnamed left after a sweep past the grace."
              : "FAILED: results naming a missing or corrupt body, or objects/temporary files left after the final sweep.",
          );
        exit(ok && forwarded && withinBudget && sinksOk && bodiesOk ? 0 : 1);
      })
      .catch((err) => {
        console.error(`chaos: ${err instanceof Error ? err.message : String(err)}`);
        exit(1);
      });
}
