// Demo mode, alive on first start: with no API key and no platform URL, Tally's server runs the
// simulator in-process, registers the three subscriptions at its own receiver, and a trickle of
// jobs of every kind flows through webhooks, the worker and the store.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@/lib/simulator/test-harness.test-util";
import { createTestDb, type TestDb } from "./db";
import { openSql, type TestSql } from "./sql";
import { apiClient } from "./safety-nets-harness";
import { startTally, type TallyServer } from "./tally-server";

let t: TestDb;
let tally: TallyServer;
let sql: TestSql;
const api = apiClient(() => tally.url);

beforeAll(async () => {
  t = await createTestDb();
  tally = await startTally(
    { TALLY_SIM_PORT: "0", TALLY_DEMO_TRAFFIC: "on", TALLY_DEMO_JOBS_PER_MINUTE: "300", TALLY_API_RPS: "100" },
    t.url,
  );
  sql = await openSql(t.url);
}, 60_000);
afterAll(async () => {
  await sql?.close();
  await tally?.stop();
  await t?.cleanup();
});

const count = async (q: string) => ((await sql.get(q)) as { n: number }).n;

describe("demo mode", () => {
  it("registers the three subscriptions and stores jobs of all three kinds that came by webhook", async () => {
    await waitFor(
      "three registered subscriptions",
      async () => {
        const r = await api("/api/subscriptions");
        const items = (r.json.items ?? []) as Array<{ platformId: string | null; secretLast4: string | null }>;
        return items.length === 3 && items.every((s) => s.platformId && s.secretLast4);
      },
      20_000,
    );
    await waitFor(
      "stored jobs of every kind, received by webhook",
      async () =>
        (await count(
          `SELECT COUNT(DISTINCT j.kind) AS n FROM Job j JOIN Receipt r ON r.jobId = j.id WHERE j.outcome = 'stored' AND r.source = 'webhook'`,
        )) === 3,
      40_000,
    );
    expect(await count(`SELECT COUNT(*) AS n FROM InboundDelivery WHERE status = 200`)).toBeGreaterThan(0);
    expect(tally.output()).toContain("demo simulator started");
  }, 70_000);
});
