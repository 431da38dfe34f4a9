// Roles per process (TALLY_SCHEDULER) with real servers on one database each, on either store:
// two `on` servers sharing a database run ONE scheduled reconciliation per interval between them;
// `off` and `external` servers run none (they never even touch a schedule's lease row); two demo
// servers sharing a database submit one trickle of jobs, not two.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setConfigForTests } from "@/lib/config";
import { db } from "@/lib/db";
import { listLeases } from "@/lib/scheduling/lease";
import { API_KEY, startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import { createTestDb, type TestDb } from "./db";
import { startTally, type TallyServer } from "./tally-server";

const INTERVAL_MS = 3_000;
let sim: Awaited<ReturnType<typeof startSim>>;
let shared: TestDb;
let quiet: TestDb;
const servers: TallyServer[] = [];

const live = (url: string, scheduler: string) => ({
  DATABASE_URL: url,
  SCRAPER_API_BASE_URL: sim.url,
  GEONODE_SCRAPER_API_KEY: API_KEY,
  TALLY_API_RPS: "1000",
  TALLY_WORKER: "off",
  TALLY_SCHEDULER: scheduler,
  TALLY_CRON_SECRET: "cron-secret-0123456789abcdef",
  TALLY_RECONCILE_INTERVAL_MINUTES: String(INTERVAL_MS / 60_000),
});

let off: TallyServer;
let external: TallyServer;
let on: TallyServer[];

beforeAll(async () => {
  sim = await startSim();
  quiet = await createTestDb();
  shared = await createTestDb();
  // The quiet ones first: by the time the `on` pair has run a few intervals, they have been up longer.
  off = await startTally(live(quiet.url, "off"));
  external = await startTally({ ...live(quiet.url, "external"), TALLY_WORKER: "on" });
  on = [await startTally(live(shared.url, "on")), await startTally(live(shared.url, "on"))];
  servers.push(off, external, ...on);
  // Four servers one after the other: over the default 60 s on a loaded machine (seen in CI).
}, 180_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await sim?.close();
  await quiet?.cleanup();
  await shared?.cleanup();
});

// db() follows the test configuration (one client per URL): point it at the quiet database for a moment.
async function quietCounts() {
  setConfigForTests(quiet.config);
  try {
    return { runs: await db().operationRun.count(), leases: (await listLeases()).length };
  } finally {
    setConfigForTests(shared.config);
  }
}

describe("TALLY_SCHEDULER", () => {
  it("two `on` servers on one database run one scheduled reconciliation per interval, not two", async () => {
    const runs = () =>
      db().operationRun.findMany({
        where: { kind: "reconcile", startedBy: { startsWith: "scheduler" } },
        orderBy: { startedAt: "asc" },
      });
    await waitFor("four scheduled reconciliations", async () => (await runs()).length >= 4, 60_000);
    const all = await runs();
    // Consecutive runs are more than half an interval apart. Two independent timers of the same
    // interval, offset by d, would start runs d and INTERVAL_MS - d apart, and one of those is at most
    // half an interval, whatever d; the half interval left over absorbs a loaded machine's delays
    // between winning the tick and writing the run.
    for (let i = 1; i < all.length; i++) {
      expect(all[i].startedAt.getTime() - all[i - 1].startedAt.getTime()).toBeGreaterThan(INTERVAL_MS / 2);
    }
    const lease = (await listLeases()).find((l) => l.name === "reconcile");
    expect(lease?.holder).toBeTruthy();
  }, 90_000);

  it("`off` and `external` servers ran no schedule: their database has no run and no lease row", async () => {
    // By now the quiet pair has been up for more than three intervals (the `on` pair, started after it, ran four).
    for (const s of [off, external]) expect(s.output()).not.toContain("safety-net schedules started");
    expect(external.output()).not.toContain("worker started");
    for (const s of on) expect(s.output()).toContain("safety-net schedules started");
    const quietDb = await quietCounts();
    expect(quietDb).toEqual({ runs: 0, leases: 0 });
  });
});

describe("demo traffic", () => {
  it("two demo servers on one database submit one trickle between them", async () => {
    const t = await createTestDb();
    const env = {
      DATABASE_URL: t.url,
      TALLY_DEMO_TRAFFIC: "on",
      TALLY_DEMO_JOBS_PER_MINUTE: "600",
      TALLY_SIM_PORT: "0",
      TALLY_WORKER: "off",
      TALLY_LOG_LEVEL: "debug",
    };
    const demo = await Promise.all([startTally(env), startTally(env)]);
    try {
      // Both must be past their start-up (simulator up, webhooks registered: the trickle starts then)
      // before counting, or the later one would simply not have begun yet.
      await waitFor(
        "both demo servers ready",
        () => demo.every((s) => s.output().includes("demo subscriptions ready")),
        90_000,
      );
      const before = await db().job.count();
      await waitFor("ten more demo jobs", async () => (await db().job.count()) >= before + 10, 30_000);
      const submitting = demo.filter((s) => s.output().includes("demo job submitted"));
      expect(submitting).toHaveLength(1);
      expect((await listLeases()).find((l) => l.name === "demo-traffic")?.holder).toBeTruthy();
    } finally {
      await Promise.all(demo.map((s) => s.stop()));
      await t.cleanup();
    }
    // Demo servers take a while to start (simulator, webhook registration through its faults).
  }, 120_000);
});
