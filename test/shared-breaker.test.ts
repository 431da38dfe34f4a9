// One circuit breaker for every process on the database (issue 50 item 3). The platform (the simulator,
// a process of its own, which records when each call arrived) answers every call 503 for a while;
// processes of the shared client (as servers and workers use it) keep calling through it. Run once with
// one process and once with three: while the breaker is open the three together send no more than the
// one did, and all three resume once the platform is back. Runs on SQLite and, through
// vitest.postgres.config.mts, on PostgreSQL.
//
// TALLY_TEST_BREAKER_OUTAGE_SECONDS (default 10) sets the outage and TALLY_TEST_BREAKER_CAP_SECONDS
// (default 2) the longest wait between probes (TALLY_PLATFORM_BREAKER_MAX_SECONDS); the figures of a
// 60 s outage with the default cap of 60 s are in docs/operations/api-economy.md.
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { getBudgetView } from "@/lib/platform/budget-view";
import type { BudgetView } from "@/lib/platform/budget-contracts";
import { resetPlatformClients } from "@/lib/platform/shared-client";
import { databaseBreakerStore as store, readBreaker } from "@/lib/platform/shared-breaker-store";
import { API_KEY } from "@/lib/simulator/test-harness.test-util";
import { runClients, simProcess } from "./client-processes";
import { createTestDb } from "./db";

const OUTAGE_MS = Number(process.env.TALLY_TEST_BREAKER_OUTAGE_SECONDS ?? 10) * 1000;
const CAP_SECONDS = process.env.TALLY_TEST_BREAKER_CAP_SECONDS ?? "2";
const UP_MS = 1500;
const RESUME_MS = Math.max(6000, Number(CAP_SECONDS) * 1000 + 4000);
/**
 * From the breaker's opening: time for every other process to see it (the row, read at most 1 s old, or
 * its own failures in a row). The first probe goes 1 s after the opening, the next 2 s later: the window
 * starts between the two.
 */
const GRACE_MS = 2000;

type Seen = { okAt: number[]; refused: number; failed: number; errors: string[] };

type Outcome = {
  /** Calls that reached the platform while the breaker was open (from GRACE_MS after it opened to the outage's end). */
  whileOpen: number;
  /** Calls that reached it from the outage's start to then (each process's failures in a row). */
  opening: number;
  /** Per process: ms from the platform's return to its first answered call (null: never). */
  resumedAfterMs: (number | null)[];
  seen: Seen[];
  breaker: BudgetView["breaker"] | null;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `n` processes on a fresh database call the platform; it answers 503 for OUTAGE_MS, then comes back. */
async function outage(n: number): Promise<Outcome> {
  const sim = await simProcess();
  const t = await createTestDb({ SCRAPER_API_BASE_URL: sim.url, GEONODE_SCRAPER_API_KEY: API_KEY });
  resetPlatformClients();
  try {
    let down = 0;
    let back = 0;
    let breaker: BudgetView["breaker"] | null = null;
    let script: Promise<void> = Promise.resolve();
    const seen = await runClients<Seen>({
      script: "test/breaker-hammer.ts",
      n,
      databaseUrl: t.url,
      simUrl: sim.url,
      env: {
        TALLY_API_RPS: "20",
        TALLY_PLATFORM_BREAKER_MAX_SECONDS: CAP_SECONDS,
        HAMMER_MS: String(UP_MS + OUTAGE_MS + RESUME_MS),
        HAMMER_CONCURRENCY: "4",
      },
      onGo: () => {
        script = (async () => {
          await sleep(UP_MS);
          down = Date.now();
          await sim.setConfig({ serverErrorRate: 1, serverErrorStatus: 503 });
          await sleep(GRACE_MS);
          // What the dashboard shows while it is open (the API budget view, every process).
          breaker = (await getBudgetView()).breaker;
          await sleep(OUTAGE_MS - GRACE_MS);
          await sim.setConfig({ serverErrorRate: 0 });
          back = Date.now();
        })();
      },
    });
    await script;
    const calls = await sim.calls();
    const resumedAfterMs = seen.map((s) => {
      const first = s.okAt.find((at) => at >= back);
      return first === undefined ? null : first - back;
    });
    // Open from when the first process opened it (as the row says; the outage's start if nothing says).
    const openedAt = (breaker as BudgetView["breaker"] | null)?.since;
    const open = (openedAt ? Date.parse(openedAt) : down) + GRACE_MS;
    return {
      whileOpen: calls.filter((c) => c.at >= open && c.at < back).length,
      opening: calls.filter((c) => c.at >= down && c.at < open).length,
      resumedAfterMs,
      seen,
      breaker,
    };
  } finally {
    await sim.close();
    await t.cleanup();
  }
}

describe("the circuit breaker shared by three processes on one database", () => {
  it(
    `while the platform answers 503 (${OUTAGE_MS / 1000} s), three processes send no more than one would; all resume when it returns, and the dashboard says who opened it, when and why`,
    async () => {
      const one = await outage(1);
      const three = await outage(3);
      console.log(
        `breaker: calls while open: 1 process ${one.whileOpen}, 3 processes ${three.whileOpen}; while opening ${one.opening} / ${three.opening}; resumed after ${JSON.stringify(one.resumedAfterMs)} / ${JSON.stringify(three.resumedAfterMs)} ms`,
      );
      for (const s of [...one.seen, ...three.seen]) expect(s.errors).toEqual([]);
      // One process alone probes on its schedule (1 s, then doubling to the cap), one call a probe.
      expect(one.whileOpen).toBeGreaterThan(0);
      // Three share one schedule and one probe at a time (unshared, each probed on its own: three times
      // as many). One more for a probe that falls on the window's edge in one run and not the other.
      expect(three.whileOpen).toBeLessThanOrEqual(one.whileOpen + 1);
      // Every process sends again once the platform is back (a probe closed it for all).
      expect(three.resumedAfterMs.every((ms) => ms !== null)).toBe(true);
      for (const s of three.seen) expect(s.refused).toBeGreaterThan(0);

      // Who opened it (one of the child processes: host:pid:tag), when, and why (the 503).
      const b = three.breaker;
      expect(b).toMatchObject({ state: expect.stringMatching(/^(open|probing)$/), failedInARow: expect.any(Number) });
      expect(b?.openedBy).toMatch(new RegExp(`^${hostname()}:\\d+:`));
      expect(b?.openedBy?.split(":")[1]).not.toBe(String(process.pid));
      expect(b?.reason).toMatch(/→ 503: Service temporarily unavailable/);
      expect(Date.parse(b?.since ?? "")).toBeGreaterThan(0);
    },
    2 * (UP_MS + OUTAGE_MS + RESUME_MS) + 120_000,
  );
});

describe("the probe lease", () => {
  it("goes to exactly one of twenty claims made at once, only once the wait is over; a failed probe moves the next one out, an unused one is given back, an answer closes it for all", async () => {
    const t = await createTestDb();
    try {
      const key = "platform http://claims.test";
      const now = Date.now();
      const opened = await store.open(key, {
        nowMs: now,
        by: "host:1:a",
        reason: "GET → 503",
        failures: 5,
        probeAt: now + 1000,
      });
      expect(opened).toMatchObject({ downSince: now, downBy: "host:1:a", probeAt: now + 1000 });
      // A second opener keeps the first one's time, name and reason.
      await store.open(key, { nowMs: now + 10, by: "host:2:b", reason: "other", failures: 7, probeAt: now + 2000 });
      expect(await readBreaker(key)).toMatchObject({
        downSince: now,
        downBy: "host:1:a",
        downFailures: 5,
        probeAt: now + 1000,
      });

      const claimAll = (at: number, prefix: string) =>
        Promise.all(Array.from({ length: 20 }, (_, i) => store.claimProbe(key, at, `${prefix}#${i}`, at + 30_000)));
      expect((await claimAll(now + 500, "early")).filter(Boolean)).toHaveLength(0);
      const won = (await claimAll(now + 1000, "p")).filter((r) => r !== null);
      expect(won).toHaveLength(1);
      const holder = won[0]!.probeBy;
      // Held: nobody else gets it while the lease lasts.
      expect((await claimAll(now + 1500, "q")).filter(Boolean)).toHaveLength(0);
      // The holder's probe failed: the next one 2 s later, the lease free then.
      const failed = await store.probeFailed(key, {
        token: holder,
        nowMs: now + 1600,
        reason: "GET → 503 again",
        failures: 6,
        probeAt: now + 3600,
      });
      expect(failed).toMatchObject({ probeBy: "", probeUntil: 0, downFailures: 6, downReason: "GET → 503 again" });
      expect(
        await store.probeFailed(key, { token: holder, nowMs: now, reason: "late", failures: 9, probeAt: 0 }),
      ).toBeNull();
      expect((await claimAll(now + 3000, "r")).filter(Boolean)).toHaveLength(0);
      const next = (await claimAll(now + 3600, "s")).filter((r) => r !== null);
      expect(next).toHaveLength(1);
      // Never sent: given back, so another process may probe at once.
      await store.releaseProbe(key, next[0]!.probeBy);
      expect((await claimAll(now + 3700, "u")).filter(Boolean)).toHaveLength(1);
      // An answer closes it for everyone: nothing to claim, who closed it and when is kept.
      await store.close(key, now + 4000, "host:3:c");
      expect(await readBreaker(key)).toMatchObject({
        downSince: 0,
        probeBy: "",
        upAt: now + 4000,
        upBy: "host:3:c",
        downBy: "host:1:a",
      });
      expect((await claimAll(now + 5000, "v")).filter(Boolean)).toHaveLength(0);
    } finally {
      await t.cleanup();
    }
  });
});
