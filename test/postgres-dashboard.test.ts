// Every feature on PostgreSQL: Tally's server in demo mode (its simulator, webhooks, worker, safety
// nets) on a PostgreSQL database stores, resubmits and dead-letters jobs, and then every page and every
// GET route of the JSON API answers without a server error, the operations a button starts succeed.
// Runs in the `postgres` vitest project.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { waitFor } from "@/lib/simulator/test-harness.test-util";
import { createTestDb, type TestDb } from "./db";
import { pages, routes } from "./routes";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let t: TestDb;
let tally: TallyServer;
const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };

beforeAll(async () => {
  t = await createTestDb();
  tally = await startTally({
    DATABASE_URL: t.url,
    TALLY_DEMO_TRAFFIC: "on",
    TALLY_DEMO_JOBS_PER_MINUTE: "120",
    TALLY_SIM_PORT: "0",
  });
  await waitFor("jobs stored", async () => (await db().job.count({ where: { outcome: "stored" } })) >= 5, 60_000);
}, 90_000);
afterAll(async () => {
  await tally?.stop();
  await t?.cleanup();
});

describe("Tally on PostgreSQL", () => {
  it("runs the pipeline: jobs stored with their results, every outcome recorded once", async () => {
    const stored = await db().job.findMany({ where: { outcome: "stored" }, select: { id: true, resultCount: true } });
    for (const j of stored) expect(await db().result.count({ where: { jobId: j.id } })).toBe(j.resultCount);
    expect(await db().receipt.count()).toBeGreaterThan(0);
  });

  it.each(pages())("page %s renders", async (url) => {
    const res = await fetch(tally.url + url.replace(/x1/g, "unknown"), { headers: auth });
    expect(res.status).toBeLessThan(500);
  });

  it.each(routes().filter((r) => r.method === "GET" && r.url.startsWith("/api/")))(
    "$method $url answers without a server error",
    async ({ url }) => {
      const res = await fetch(tally.url + url, { headers: auth });
      expect(res.status, await res.clone().text()).toBeLessThan(500);
    },
  );

  it("reconciliation and replay started from the API succeed", async () => {
    for (const path of ["/api/operations/reconcile", "/api/operations/replay"]) {
      const res = await fetch(tally.url + path, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(202);
      const { runId } = (await res.json()) as { runId: string };
      await waitFor(
        `${path} finished`,
        async () => (await db().operationRun.findUnique({ where: { id: runId } }))?.state !== "running",
        60_000,
      );
      expect(await db().operationRun.findUnique({ where: { id: runId } })).toMatchObject({ state: "succeeded" });
    }
  });
});
