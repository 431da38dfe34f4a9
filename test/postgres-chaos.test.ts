// The small chaos run on PostgreSQL with several processes (the reference deployment in miniature):
// two servers with the worker off behind a round-robin balancer, two `npm run worker` processes, one
// database; SIGKILLs hit a server and a worker, a rotation happens, the forwarding sink fails and goes
// down, a postgres sink and a Redis sink refuse connections for a while. The ledger must show nothing
// lost, doubled or wrong, every outcome forwarded (each sink holding it once in effect), and the platform
// must never see more than TALLY_API_RPS × 5 calls in any 5-second window. The budget here is low
// enough that the run presses against it. The full run: `npm run chaos -- --store postgres --servers 2 --workers 2`.
import { describe, expect, inject, it } from "vitest";
import { printLedger } from "../scripts/chaos/ledger";
import { runChaos } from "../scripts/chaos/run";
import { expectSinksOnceEach } from "./chaos-sinks";
import { POSTGRES_ADMIN_URL } from "./store";

describe("chaos on PostgreSQL (small): 2 servers, 2 workers", () => {
  it(
    "loses nothing, doubles nothing and keeps to the rate budget while servers and workers are killed",
    { timeout: 600_000 },
    async () => {
      const lines: string[] = [];
      const ledger = await runChaos({
        jobs: 200,
        kills: 3,
        seed: 12,
        timeoutMs: 540_000,
        store: "postgres",
        postgres: { adminUrl: POSTGRES_ADMIN_URL, template: inject("templateDb") },
        servers: 2,
        workers: 2,
        apiRps: 10,
        broker: "redis",
        log: (s) => lines.push(s),
      });
      printLedger(ledger, (s) => lines.push(s));
      console.log(lines.join("\n"));
      // Both kinds of process were killed (and restarted), and both servers took requests.
      expect(lines.filter((l) => /server \d killed \(SIGKILL\)/.test(l)).length).toBeGreaterThanOrEqual(1);
      expect(lines.filter((l) => /worker \d \(pid \d+\) killed \(SIGKILL\)/.test(l)).length).toBeGreaterThanOrEqual(1);
      const served = lines.map((l) => /requests through the balancer per server: (.*)$/.exec(l)?.[1]).find(Boolean);
      expect(served?.split(", ").map(Number)).toEqual([expect.any(Number), expect.any(Number)]);
      for (const n of served?.split(", ").map(Number) ?? []) expect(n).toBeGreaterThan(50);

      expect(ledger.submitted).toBeGreaterThanOrEqual(200);
      expect(ledger.stillRunningOnPlatform).toBe(0);
      expect(ledger.lost).toBe(0);
      expect(ledger.storedTwice).toBe(0);
      expect(ledger.wrongOutcome).toBe(0);
      expect(ledger.stored).toBeGreaterThan(120);
      expect(ledger.unauthorizedJobsUnrecovered).toBe(0);
      expect(ledger.forwarded).toMatchObject({ missing: 0, unexpected: 0, badSignatures: 0, ok: true });
      expect(ledger.forwarded?.uniqueIds).toBe(ledger.forwarded?.outcomes);
      expectSinksOnceEach(ledger, ["postgres", "redis"]);
      // The platform's view: never more than 10 × 5 calls in any 5 s (Tally's default budget).
      expect(ledger.calls?.calls).toBeGreaterThan(400);
      expect(ledger.calls?.limit).toBe(50);
      expect(ledger.calls?.worstWindow).toBeLessThanOrEqual(50);
    },
  );
});
