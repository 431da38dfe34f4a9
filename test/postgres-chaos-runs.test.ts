// Runs-mode chaos on PostgreSQL in the reference deployment's shape (issue 50): two servers behind a
// round-robin balancer, one `npm run worker`, one database. A run of 500 URLs in chunks of 25 under the
// fault mix (5 % item failures, POSTs that take effect but answer 502), three SIGKILLs of servers and the
// worker while it submits and while it fetches. The verdict is chaos-runs.test.ts's (every URL final,
// counters adding up at every read and matching the rows, none stored twice) plus: the platform's
// duplicate submissions equal Tally's duplicateSubmits, and the tokens the simulator charged for the
// run's jobs (and for the duplicates) equal what GET /api/runs/{id} shows. The soak of it:
// `npm run chaos -- --runs 2000 --kills 3 --store postgres --servers 2 --workers 1 --soak 20`.
import { describe, expect, inject, it } from "vitest";
import { printRunsLedger, runRunsChaos } from "../scripts/chaos/runs";
import { expectRunsChaosHeld } from "./chaos-runs-expect";
import { POSTGRES_ADMIN_URL } from "./store";

describe("chaos on PostgreSQL (small), runs: 2 servers, 1 worker", () => {
  it(
    "a run under faults and kills of servers and the worker ends with every URL final, counted once, tokens as charged",
    { timeout: 420_000 },
    async () => {
      const lines: string[] = [];
      const { facts, verdict } = await runRunsChaos({
        urls: 500,
        batchSize: 25,
        kills: 3,
        seed: 41,
        timeoutMs: 360_000,
        store: "postgres",
        postgres: { adminUrl: POSTGRES_ADMIN_URL, template: inject("templateDb") },
        servers: 2,
        workers: 1,
        log: (s) => lines.push(s),
      });
      printRunsLedger(facts, verdict, (s) => lines.push(s));
      console.log(lines.join("\n"));
      // Three kills, a server's and the worker's among them.
      expect(lines.filter((l) => /killed \(SIGKILL\)/.test(l))).toHaveLength(3);
      expect(lines.some((l) => /server \d killed \(SIGKILL\)/.test(l))).toBe(true);
      expect(lines.some((l) => /worker \d killed \(SIGKILL\)/.test(l))).toBe(true);
      expectRunsChaosHeld(facts, verdict, 500, 450);
    },
  );
});
