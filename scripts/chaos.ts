// npm run chaos -- [--jobs 2000] [--kills 3] [--seed 1] [--timeout-minutes 20]
// Proves "none lost, none doubled" under faults, crashes and a rotation; exits non-zero otherwise.
import { existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { parseArgs } from "node:util";
import { printLedger } from "./chaos/ledger";
import { runChaos } from "./chaos/run";

const { values } = parseArgs({
  options: {
    jobs: { type: "string", default: "2000" },
    kills: { type: "string", default: "3" },
    seed: { type: "string", default: String(Date.now() % 100000) },
    "timeout-minutes": { type: "string", default: "20" },
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

if (!existsSync(".next/BUILD_ID")) execFileSync("npx", ["next", "build"], { stdio: "inherit" });
runChaos({ jobs, kills, seed, timeoutMs })
  .then((ledger) => {
    console.log("\nLedger (Tally's database against the simulator's truth):");
    printLedger(ledger);
    const ok = ledger.lost === 0 && ledger.storedTwice === 0 && ledger.wrongOutcome === 0;
    const forwarded = ledger.forwarded?.ok ?? false;
    console.log(ok ? "\nOK: none lost, none doubled." : "\nFAILED: jobs were lost, doubled or given the wrong outcome.");
    console.log(forwarded ? "OK: every outcome forwarded, signed, once per webhook-id." : "FAILED: outcome events missing, unexpected or badly signed at the sink.");
    process.exit(ok && forwarded ? 0 : 1);
  })
  .catch((err) => {
    console.error(`chaos: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
