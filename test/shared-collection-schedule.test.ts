// A collection's schedule with two Tally servers (the built server, `npm run build` first) on one
// database, both running the schedules (TALLY_SCHEDULER=on) and checking every 200 ms for a schedule that
// ticks every 2 s: every tick is recorded once and starts at most one run, and every scheduled run
// belongs to exactly one tick. Runs on SQLite (one file, two processes) and, through
// vitest.postgres.config.mts, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { createTestDb, type TestDb } from "./db";
import { openSql, type TestSql } from "./sql";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let t: TestDb;
let sim: Awaited<ReturnType<typeof startSim>>;
let servers: TallyServer[] = [];
let sql: TestSql;

beforeAll(async () => {
  sim = await startSim();
  t = await createTestDb();
  const env = {
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_API_RPS: "1000",
    TALLY_SCHEDULER: "on",
    TALLY_WORKER: "on",
    TALLY_COLLECTIONS_CHECK_MS: "200",
    TALLY_DELIVERY_MODE: "polling",
    TALLY_POLL_INITIAL_MS: "100",
    TALLY_POLL_MAX_MS: "300",
  };
  servers = await Promise.all([0, 1].map(() => startTally(env, t.url)));
  sql = await openSql(t.url, { readonly: true });
}, 90_000);
afterAll(async () => {
  await sql?.close();
  await Promise.all(servers.map((s) => s.stop()));
  await sim?.close();
  await t?.cleanup();
});

const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}`, "content-type": "application/json" };
async function post(server: TallyServer, path: string, body: unknown = {}) {
  const res = await fetch(server.url + path, { method: "POST", headers: auth, body: JSON.stringify(body) });
  return { status: res.status, json: z.record(z.string(), z.unknown()).parse(await res.json()) };
}

const tickRow = z.object({ scheduledFor: z.string(), outcome: z.string(), runId: z.string().nullable() });
const runRow = z.object({ id: z.string(), trigger: z.string().nullable() });
const TICK_MS = 2000;

describe("a collection's schedule with two servers on one database", () => {
  it("makes one run per tick: no tick recorded or run twice, every scheduled run belongs to one tick", async () => {
    const [a, b] = servers;
    const created = await post(a, "/api/collections", {
      name: "every two seconds",
      urls: ["https://shop.example/tick/1", "https://shop.example/tick/2"],
      schedule: "*/2 * * * * *",
      timezone: "UTC",
    });
    expect(created.status).toBe(201);
    const id = z.string().parse(created.json.id);

    // Let it tick for ~14 s, then pause it (on the other server) and let a pass in flight finish.
    await new Promise((r) => setTimeout(r, 14_000));
    expect((await post(b, `/api/collections/${id}/pause`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));

    const ticks = tickRow
      .array()
      .parse(
        await sql.all(
          `SELECT scheduledFor, outcome, runId FROM CollectionTick WHERE collectionId = ? ORDER BY scheduledFor`,
          id,
        ),
      );
    const runs = runRow.array().parse(await sql.all(`SELECT id, trigger FROM Run WHERE collectionId = ?`, id));

    // About seven ticks came; a slow pass on a busy machine may let one go by, never record one twice.
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    const times = ticks.map((x) => new Date(x.scheduledFor).getTime());
    expect(new Set(times).size).toBe(ticks.length);
    for (const ms of times) expect(ms % TICK_MS).toBe(0);
    expect(ticks.every((x) => x.outcome === "started" || x.outcome === "skipped")).toBe(true);

    // Runs == started ticks, one to one.
    const started = ticks.filter((x) => x.outcome === "started");
    expect(started.length).toBeGreaterThanOrEqual(1);
    expect(started.every((x) => x.runId !== null)).toBe(true);
    expect(runs.every((r) => r.trigger === "schedule")).toBe(true);
    expect(runs).toHaveLength(started.length);
    expect(new Set(started.map((x) => x.runId)).size).toBe(started.length);
    expect([...started.map((x) => x.runId)].sort()).toEqual(runs.map((r) => r.id).sort());
    // A tick is skipped only for a run of this collection that was still going.
    for (const x of ticks.filter((x) => x.outcome === "skipped"))
      expect(runs.map((r) => r.id)).toContain(
        z
          .string()
          .regex(/^run (\S+) was still going/)
          .transform((s) => s.split(" ")[1])
          .parse(
            (
              await sql.get<{ reason: string }>(
                `SELECT reason FROM CollectionTick WHERE collectionId = ? AND scheduledFor = ?`,
                id,
                new Date(x.scheduledFor),
              )
            )?.reason,
          ),
      );

    // Each tick was fired by one process: the two servers' logs name each scheduled time once in all.
    const logged = servers.flatMap((s) =>
      s
        .output()
        .split("\n")
        .filter((l) => l.includes("collection tick") && l.includes(id) && !l.includes("failed")),
    );
    expect(logged).toHaveLength(ticks.length);
  }, 90_000);
});
