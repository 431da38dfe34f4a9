// GET /api/collections/{id}/urls/history over real HTTP (the built server, `npm run build` first): one
// URL across a collection's runs, newest first, with the rung that stored it, the rungs tried, tokens,
// its change, the failed check with its excerpt, and the rung the next run starts it at; paged with a
// cursor; runs whose list did not hold the URL left out; a missing or invalid url 400 with the reason, an
// unknown collection 404, no login 401. Runs on SQLite and, through vitest.postgres.config.mts, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { urlHistorySchema } from "@/lib/collections/client";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { createTestDb, type TestDb } from "./db";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let t: TestDb;
let sim: Awaited<ReturnType<typeof startSim>>;
let tally: TallyServer;

beforeAll(async () => {
  sim = await startSim();
  t = await createTestDb();
  tally = await startTally(
    {
      SCRAPER_API_BASE_URL: sim.url,
      GEONODE_SCRAPER_API_KEY: API_KEY,
      TALLY_API_RPS: "1000",
      TALLY_WORKER: "on",
      TALLY_DELIVERY_MODE: "polling",
      TALLY_POLL_INITIAL_MS: "100",
      TALLY_POLL_MAX_MS: "300",
    },
    t.url,
  );
}, 60_000);
afterAll(async () => {
  await tally?.stop();
  await sim?.close();
  await t?.cleanup();
});

const bearer = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}`, "content-type": "application/json" };
async function call(path: string, body?: unknown, headers: Record<string, string> = bearer) {
  const res = await fetch(tally.url + path, {
    method: body === undefined ? "GET" : "POST",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: z.record(z.string(), z.unknown()).parse(await res.json()) };
}
const json = async (path: string, body?: unknown) => (await call(path, body)).body;

async function runToEnd(collectionId: string): Promise<string> {
  const runId = z.string().parse((await json(`/api/collections/${collectionId}/run`, {})).runId);
  for (let i = 0; i < 600; i++) {
    const run = await json(`/api/runs/${runId}`);
    if (run.state === "completed" && run.changes) return runId;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} did not complete and classify`);
}

const history = (c: string, url: string, extra = "") =>
  call(`/api/collections/${c}/urls/history?url=${encodeURIComponent(url)}${extra}`);

describe("a URL's history across a collection's runs", () => {
  it("shows each run's state, change, rung, rungs tried, tokens and check, newest first, and the remembered rung", async () => {
    // Every host answers a block page to a plain fetch; a residential proxy gets through (the last rung).
    await sim.control("/_sim/config", {
      blockPageRate: 1,
      residentialUnblockShare: 1,
      failureRate: 0,
      itemFailureRate: 0,
    });
    const BLOCKED = "https://guarded.example/p/1";
    const INVOICE = "https://guarded.example/p/2";
    const c = z.string().parse(
      (
        await json("/api/collections", {
          name: "history",
          urls: [BLOCKED, INVOICE],
          checks: { mustNotContain: [{ text: "no such phrase anywhere" }] },
        })
      ).id,
    );
    const first = await runToEnd(c);
    const second = await runToEnd(c);
    // A third run without BLOCKED: it is not in that run's list, so its history leaves the run out.
    await json(`/api/collections/${c}`, { urls: [INVOICE] });
    const third = await runToEnd(c);
    await sim.control("/_sim/config", { blockPageRate: 0, residentialUnblockShare: 0 });

    const res = await history(c, BLOCKED);
    expect(res.status).toBe(200);
    const h = urlHistorySchema.parse(res.body);
    expect(h.url).toBe(BLOCKED);
    expect(h.items.map((i) => i.runId)).toEqual([second, first]);
    const [latest, oldest] = h.items;
    expect(oldest).toMatchObject({
      state: "stored",
      errorCode: null,
      change: "new",
      rung: 3,
      rungName: "proxy residential",
      rungsTried: ["plain", "render_js", "render_js + wait_config(networkidle)", "proxy residential"],
      trigger: "manual",
    });
    expect(oldest?.tokensCharged).toBe(4);
    // The second run started it at the remembered rung (or, stepping down now and then, one lower).
    expect(latest).toMatchObject({ state: "stored", change: "unchanged", rungName: "proxy residential" });
    expect(latest?.rungsTried.length).toBeLessThanOrEqual(2);
    expect(h.remembered).toMatchObject({ rung: 3, rungName: "proxy residential" });
    expect(h.nextCursor).toBeNull();
    expect((await json(`/api/runs/${third}`)).total).toBe(1);

    // Paged: one run a page, the cursor reaches the older run, and a bad cursor is refused.
    const p1 = urlHistorySchema.parse((await history(c, BLOCKED, "&limit=1")).body);
    expect(p1.items.map((i) => i.runId)).toEqual([second]);
    expect(p1.nextCursor).not.toBeNull();
    const p2 = urlHistorySchema.parse(
      (await history(c, BLOCKED, `&limit=1&cursor=${encodeURIComponent(p1.nextCursor ?? "")}`)).body,
    );
    expect(p2.items.map((i) => i.runId)).toEqual([first]);
    expect(p2.nextCursor).toBeNull();
    expect((await history(c, BLOCKED, "&cursor=not-a-cursor")).status).toBe(400);

    // A URL the collection's runs never had: an empty history, nothing remembered.
    const none = urlHistorySchema.parse((await history(c, "https://elsewhere.example/x")).body);
    expect(none).toMatchObject({ items: [], remembered: null, nextCursor: null });
  }, 180_000);

  it("a URL that fails its check at every rung: failed, content_check_failed, the check's name and excerpt", async () => {
    await sim.control("/_sim/config", { blockPageRate: 0, failureRate: 0, itemFailureRate: 0 });
    const URL = "https://shop.example/catalogue/item-1";
    const c = z.string().parse(
      (
        await json("/api/collections", {
          name: "checked",
          urls: [URL],
          checks: { mustContain: [{ text: "zq-never-there" }] },
        })
      ).id,
    );
    const run = await runToEnd(c);
    const h = urlHistorySchema.parse((await history(c, URL)).body);
    expect(h.items).toHaveLength(1);
    expect(h.items[0]).toMatchObject({
      runId: run,
      state: "failed",
      errorCode: "content_check_failed",
      rung: 3,
      rungsTried: ["plain", "render_js", "render_js + wait_config(networkidle)", "proxy residential"],
    });
    expect(h.items[0]?.checkName).toMatch(/mustContain\[0\]/);
    expect(h.items[0]?.tokensCharged).toBe(4);
    // Nothing worked, so nothing is remembered: the next run starts at the first rung again.
    expect(h.remembered).toBeNull();
  }, 120_000);

  it("answers 400 with the reason for a missing or invalid url, 404 for an unknown collection, 401 without login", async () => {
    const c = z
      .string()
      .parse((await json("/api/collections", { name: "refusals", urls: ["https://a.example/1"] })).id);
    for (const q of [
      "",
      "?url=",
      "?url=%20",
      `?url=${encodeURIComponent("not a url")}`,
      `?url=${encodeURIComponent("ftp://a.example/x")}`,
    ]) {
      const res = await call(`/api/collections/${c}/urls/history${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error, q).toBe("bad_request");
      expect(String(res.body.message), q).toMatch(/url/);
    }
    const unknown = await history("no-such-collection", "https://a.example/1");
    expect(unknown.status).toBe(404);
    expect(String(unknown.body.message)).toMatch(/no-such-collection/);
    const anonymous = await call(
      `/api/collections/${c}/urls/history?url=${encodeURIComponent("https://a.example/1")}`,
      undefined,
      {},
    );
    expect(anonymous.status).toBe(401);
  });
});
