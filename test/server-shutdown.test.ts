// A deploy's SIGTERM under `npm start`: the in-server worker finishes the item it is running (stored,
// its attempt kept) before the process exits, instead of aborting it to be fetched again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submitJob } from "@/lib/jobs/submit";
import { resetPlatformClients } from "@/lib/platform/shared-client";
import { isTerminal } from "@/lib/platform";
import { API_KEY, startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import { addSubscription, createTestDb, type TestDb } from "./db";
import { openSql, type TestSql } from "./sql";
import { startTally } from "./tally-server";
import { deliver, envelope } from "./webhook-client";

const SECRET = "whsec_shutdown_test_secret";
let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;
let sql: TestSql;
beforeAll(async () => {
  sim = await startSim();
  resetPlatformClients();
  t = await createTestDb({ SCRAPER_API_BASE_URL: sim.url, GEONODE_SCRAPER_API_KEY: API_KEY, TALLY_API_RPS: "1000" });
  sql = await openSql(t.url);
  await addSubscription(sql, "sub-1", SECRET);
});
afterAll(async () => {
  await sql?.close();
  await sim?.close();
  await t?.cleanup();
});

describe("stopping under npm start", () => {
  it("lets the worker finish the item in flight, then exits 0", async () => {
    const { jobId } = await submitJob({ kind: "extract", url: "https://example.com/shutdown" });
    const client = sim.client();
    await waitFor("platform job settled", async () => isTerminal((await client.getJob("extract", jobId)).status));
    const tally = await startTally(
      {
        SCRAPER_API_BASE_URL: sim.url,
        GEONODE_SCRAPER_API_KEY: API_KEY,
        TALLY_API_RPS: "1000",
        TALLY_WORKER: "on",
        TALLY_RECONCILE_INTERVAL_MINUTES: "0",
      },
      t.url,
    );
    // Every platform answer now takes 2 s: the worker is mid-call when the signal comes.
    await sim.control("/_sim/config", { slowResponseRate: 1, slowResponseMs: 2000 });
    try {
      expect(await deliver(`${tally.url}/webhooks/geonode/sub-1`, envelope(jobId), { secret: SECRET })).toEqual({
        status: 200,
        json: { status: "accepted" },
      });
      const state = async () =>
        (await sql.get("SELECT state, attempts FROM QueueItem WHERE jobId = ?", jobId)) as {
          state: string;
          attempts: number;
        };
      await waitFor("item claimed", async () => (await state()).state === "leased", 5000);
      expect(await tally.signal("SIGTERM")).toBe(0);
      expect(await state()).toEqual({ state: "done", attempts: 1 });
      expect(await sql.get("SELECT outcome FROM Job WHERE id = ?", jobId)).toEqual({ outcome: "stored" });
      expect(tally.output()).toContain("Tally stopping (SIGTERM)");
    } finally {
      await sim.control("/_sim/config", { slowResponseRate: 0 });
    }
  });
});
