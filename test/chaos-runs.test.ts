// The small chaos run in runs mode (scripts/chaos/runs.ts; `npm run chaos -- --runs 5000` is the big
// one): a run of 600 URLs in chunks of 50 under the fault mix, 5 % item failures and POSTs that take
// effect but answer 502, Tally SIGKILLed while the run submits and while it fetches. Every URL ends
// final, the counters add up at every read and match the URL rows, none is stored twice, and every
// chunk the platform got twice is in duplicateSubmits, no more and no fewer; the tokens the simulator
// charged for the run's jobs (and for any duplicates) equal what GET /api/runs/{id} shows. Its PostgreSQL
// twin, with two servers and a worker: test/postgres-chaos-runs.test.ts.
import { describe, expect, it } from "vitest";
import { printRunsLedger, runRunsChaos } from "../scripts/chaos/runs";
import { expectRunsChaosHeld } from "./chaos-runs-expect";

describe("chaos (small), runs", () => {
  it("a run under faults and kills ends with every URL final, counted once", { timeout: 300_000 }, async () => {
    const lines: string[] = [];
    const { facts, verdict } = await runRunsChaos({
      urls: 600,
      batchSize: 50,
      kills: 2,
      seed: 28,
      timeoutMs: 240_000,
      log: (s) => lines.push(s),
    });
    printRunsLedger(facts, verdict, (s) => lines.push(s));
    console.log(lines.join("\n"));
    expect(lines.filter((l) => /killed \(SIGKILL\)/.test(l))).toHaveLength(2);
    expectRunsChaosHeld(facts, verdict, 600, 540);
  });
});
