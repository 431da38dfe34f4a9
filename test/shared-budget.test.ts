// The platform rate budget and the 429 pause are shared through the database: several processes (the
// shared client as servers and workers use it) on one database hammer one simulator, which records
// when each call arrived. Runs on SQLite and, through vitest.postgres.config.mts, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiCall } from "@/lib/simulator/core";
import { runClients, simProcess } from "./client-processes";
import { createTestDb, type TestDb } from "./db";

const RPS = 20;
const PROCESSES = 3;

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.cleanup();
});

type Seen = { ok: number; rateLimited: number; failed: number; errors: string[] };

/** Starts `n` hammer processes, lets them all go at once, and resolves with what each saw. */
const hammer = (simUrl: string, n: number, ms: number, onGo: () => void = () => undefined): Promise<Seen[]> =>
  runClients<Seen>({
    script: "test/budget-hammer.ts",
    n,
    databaseUrl: t.url,
    simUrl,
    env: { TALLY_API_RPS: String(RPS), HAMMER_MS: String(ms), HAMMER_CONCURRENCY: "4" },
    onGo,
  });

/** The most calls that arrived within any window of `ms` (sliding over every arrival). */
function maxInWindow(calls: ApiCall[], ms: number): number {
  const at = calls.map((c) => c.at).sort((a, b) => a - b);
  let best = 0;
  let j = 0;
  for (let i = 0; i < at.length; i++) {
    while (at[i] - at[j] >= ms) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

describe(`the platform budget shared by ${PROCESSES} processes on one database`, () => {
  it(`keeps the calls the simulator sees within TALLY_API_RPS=${RPS} over any 1 s and 5 s window, near the budget`, async () => {
    const sim = await simProcess();
    try {
      const seen = await hammer(sim.url, PROCESSES, 6500);
      expect(seen.flatMap((s) => s.errors)).toEqual([]);
      const calls = await sim.calls();
      // Every process got a share: none was locked out by the others' leases.
      for (const s of seen) expect(s.ok).toBeGreaterThan(0);
      expect(calls.length).toBe(seen.reduce((sum, s) => sum + s.ok, 0));
      // One call over in a second is the documented worst case (a call held up longer than TRANSIT_MS
      // behind its neighbours: lib/platform/shared-budget.ts); on a machine at load 10 the arrivals of
      // calls sent on time bunch by one more (seen in CI: 22). A budget that was not shared would allow
      // the whole budget per process (3 × RPS = 60). Five seconds absorb the bunching.
      expect(maxInWindow(calls, 1000)).toBeLessThanOrEqual(RPS + 2);
      expect(maxInWindow(calls, 5000)).toBeLessThanOrEqual(5 * RPS);
      // Near the budget: spacing leaves 1000 / 1150 of it (87 %); slots a starved process reaches
      // too late are lost, so on a loaded machine less. Half is the floor that says "shared, not
      // divided by the number of processes" (a third each would be a static split).
      expect(maxInWindow(calls, 5000)).toBeGreaterThanOrEqual(Math.floor(5 * RPS * 0.5));
    } finally {
      await sim.close();
    }
  }, 120_000);

  it("pauses every process for the Retry-After of a 429 that one of them got", async () => {
    const sim = await simProcess({ retryAfterSeconds: 4, rateLimitForm: "seconds" });
    try {
      const seen = await hammer(sim.url, PROCESSES, 9000, () => {
        // Once all are under way (10 calls seen), the next call answers 429 with Retry-After: 4.
        void (async () => {
          while ((await sim.calls()).length < 10) await new Promise((r) => setTimeout(r, 50));
          await sim.injectFaults({ kind: "rate_limit", count: 1, retryAfter: "seconds" });
        })();
      });
      expect(seen.flatMap((s) => s.errors)).toEqual([]);
      const calls = await sim.calls();
      const limited = calls.filter((c) => c.status === 429);
      expect(limited).toHaveLength(1);
      const t429 = limited[0].at;
      // Calls that had passed their pause check before the 429 was recorded may still arrive just
      // after it (PAUSE_CACHE_MS, 250 ms, plus a read and the trip there, longer on a loaded machine);
      // after that nobody calls until the 4 s are over. Unshared, the others would go on at RPS.
      const during = calls.filter((c) => c.at > t429 + 1000 && c.at < t429 + 4000);
      expect(during).toEqual([]);
      expect(calls.filter((c) => c.at < t429).length).toBeGreaterThanOrEqual(10);
      // And all go on afterwards.
      expect(calls.filter((c) => c.at >= t429 + 4000).length).toBeGreaterThan(RPS / 2);
    } finally {
      await sim.close();
    }
  }, 120_000);
});
