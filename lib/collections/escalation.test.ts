// Collections and the escalation ladder (issue 39), in process with the real simulator over HTTP, the
// real queue and worker, on SQLite (and PostgreSQL through vitest.postgres.config.mts): checks, ladder and
// caps saved with a collection (bad ones: 400 naming the field, nothing saved); its second run starts each
// URL at the rung that last worked, so the calls for its blocked hosts fall by at least half; a block page
// never becomes a URL's body, so change tracking never reports it; a monthly cap stops its runs.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { TallyError } from "@/lib/errors";
import { processJobItem } from "@/lib/jobs/process-job";
import { isTerminal } from "@/lib/platform";
import { flushApiCalls, resetPlatformClients } from "@/lib/platform/shared-client";
import { createRegistry, enqueue } from "@/lib/queue";
import { getRun, listRunUrls, parseValues, RUN_SUBMIT, type RunView } from "@/lib/runs";
import { baseConfig } from "@/lib/simulator/config";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { classifyRunKind, processJobKind, runSubmitKind } from "@/lib/worker/registry";
import { createWorker } from "@/lib/worker/worker";
import { createTestDb, type TestDb } from "@/test/db";
import { runAlertPass } from "@/lib/alerts";
import {
  createCollection,
  cronCollections,
  getCollection,
  listChanges,
  readCollectionRequest,
  runCollectionNow,
} from "./index";

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;
const registry = createRegistry([processJobKind(), runSubmitKind(), classifyRunKind()]);

beforeAll(async () => {
  sim = await startSim();
  resetPlatformClients();
  t = await createTestDb({ SCRAPER_API_BASE_URL: sim.url, GEONODE_SCRAPER_API_KEY: API_KEY, TALLY_API_RPS: "1000" });
}, 30_000);
afterAll(async () => {
  await flushApiCalls().catch(() => undefined);
  await sim?.close();
  await t?.cleanup();
});
beforeEach(() => {
  sim.sim.setConfig({ ...baseConfig, seed: 5, jobDurationMs: [10, 40], hostileShare: 0 });
});

const drain = () => createWorker({ registry, concurrency: 2, leaseMs: 10_000, owner: "test" }).drain();

async function runToEnd(runId: string): Promise<RunView> {
  for (let round = 0; round < 40; round++) {
    await drain();
    const run = await getRun(runId);
    const c = run.counts;
    expect(c.pending + c.submitted + c.stored + c.retrying + c.suspect + c.failed).toBe(run.total);
    if (run.state === "completed" || run.state === "cancelled") {
      await drain();
      return getRun(runId);
    }
    const open = await db().runChunk.findMany({ where: { runId, state: "submitted" }, select: { jobId: true } });
    for (const ch of open) {
      if (!ch.jobId) continue;
      for (let i = 0; i < 400; i++) {
        if (isTerminal((await sim.client().getJob("batch", ch.jobId)).status)) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await enqueue(db(), processJobItem({ jobId: ch.jobId, kind: "batch", source: "webhook" }));
    }
    await db().queueItem.updateMany({ where: { kind: RUN_SUBMIT, state: "ready" }, data: { availableAt: new Date() } });
  }
  throw new Error(`run ${runId} did not finish`);
}

const hostsUrls = (hosts: number, per: number, tag: string) =>
  Array.from({ length: hosts * per }, (_, i) => `https://${tag}${i % hosts}.example/p/${i}`);

async function urlsOf(runId: string) {
  return (await listRunUrls(runId, { limit: 1000 })).items;
}

const plainKind = async (url: string) =>
  (
    (await fetch(`${sim.url}/_sim/content?url=${encodeURIComponent(url)}`).then((r) => r.json())) as {
      wouldServe: { plain: { kind: string } };
    }
  ).wouldServe.plain.kind;

describe("collections: checks, ladder memory and caps", () => {
  it("saves checks, escalation and caps; refuses bad ones with the field named and saves nothing", async () => {
    const before = await db().collection.count();
    const request = (body: Record<string, unknown>) =>
      new Request("http://tally.test/api/collections", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "c", urls: ["https://a.example/1"], ...body }),
      });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ checks: { mustContain: [{ selector: "p:nth-child(" }] } }, /checks\.mustContain\.0\.selector/],
      [{ checks: { mustContain: [{ text: "" }] } }, /checks\.mustContain\.0\.text: must not be empty/],
      [{ maxTokens: -1 }, /maxTokens/],
      [{ monthlyMaxTokens: -10 }, /monthlyMaxTokens/],
      [{ escalation: [{ waitConfig: { waitUntil: "never" } }] }, /escalation\.0\.waitConfig\.waitUntil/],
    ];
    for (const [body, why] of cases) {
      const err = await readCollectionRequest(request(body), "create")
        .then((input) => createCollection(input, "test"))
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err, JSON.stringify(body)).toBeInstanceOf(TallyError);
      expect((err as TallyError).message).toMatch(why);
    }
    expect(await db().collection.count()).toBe(before);
    const input = await readCollectionRequest(
      request({
        checks: { mustContain: [{ text: "price" }] },
        escalation: [{}, { renderJs: true }],
        monthlyMaxTokens: 500,
      }),
      "create",
    );
    const c = await createCollection(input, "test");
    expect(await getCollection(c.id)).toMatchObject({
      checks: { minTextLength: 1, mustContain: [{ text: "price" }], mustNotContain: [], detectBlocks: true },
      escalation: [{}, { renderJs: true }],
      maxTokens: null,
      monthlyMaxTokens: 500,
      tokensThisMonth: 0,
    });
  });

  it("the second run starts each URL at its remembered rung: calls for blocked hosts fall by at least half; block pages never reported changed", async () => {
    sim.sim.setConfig({ blockPageRate: 0.4, residentialUnblockShare: 1 });
    const urls = hostsUrls(20, 3, "mem");
    const c = await createCollection({ name: "memory", list: parseValues(urls) }, "test");
    const first = await runToEnd((await runCollectionNow(c.id, "test")).runId);
    expect(first.counts).toMatchObject({ stored: urls.length, failed: 0 });
    const blocked = new Set<string>();
    for (const u of urls) if ((await plainKind(u)) === "block") blocked.add(u);
    expect(blocked.size).toBeGreaterThan(5);
    const sends = (rows: { url: string; attempts: number }[]) =>
      rows.filter((u) => blocked.has(u.url)).reduce((s, u) => s + u.attempts, 0);
    const firstRows = await urlsOf(first.id);
    for (const u of firstRows) expect(u.rung).toBe(blocked.has(u.url) ? 3 : 0);

    const second = await runToEnd((await runCollectionNow(c.id, "test")).runId);
    expect(second.counts).toMatchObject({ stored: urls.length, failed: 0 });
    const secondRows = await urlsOf(second.id);
    // Every blocked URL started at rung 3 or, stepping down now and then, rung 2.
    for (const u of secondRows.filter((r) => blocked.has(r.url))) {
      expect(["proxy residential"], u.url).toContain(u.rungsTried[u.rungsTried.length - 1]);
      expect(u.rungsTried.length).toBeLessThanOrEqual(2);
    }
    expect(sends(secondRows) * 2).toBeLessThanOrEqual(sends(firstRows));
    // Platform calls per blocked URL, as charged tokens say too.
    const tokens = (rows: { url: string; tokensCharged: number }[]) =>
      rows.filter((u) => blocked.has(u.url)).reduce((s, u) => s + u.tokensCharged, 0);
    expect(tokens(secondRows) * 2).toBeLessThanOrEqual(tokens(firstRows));
    // Change tracking compared good bodies only: nothing changed, nothing was a block page.
    const changes = await listChanges(second.id, { limit: 200 });
    expect(changes.items.filter((i) => i.change === "changed")).toEqual([]);
  });

  it("a monthly cap stops a collection's runs: the run says why and is charged no more than what was left", async () => {
    sim.sim.setConfig({ blockPageRate: 1, residentialUnblockShare: 0 });
    const urls = hostsUrls(5, 2, "month");
    const c = await createCollection({ name: "capped", list: parseValues(urls), monthlyMaxTokens: 25 }, "test");
    const first = await runToEnd((await runCollectionNow(c.id, "test")).runId);
    expect(first.tokens.charged).toBeLessThanOrEqual(25);
    expect(first.tokens.capReason).toMatch(/reached/);
    expect((await getCollection(c.id)).tokensThisMonth).toBe(first.tokens.charged);
    // Nothing left this month: a manual run is refused, naming the estimate.
    const refused = await runCollectionNow(c.id, "test").then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(TallyError);
    expect((refused as TallyError).message).toMatch(/estimate is 10 tokens.*monthly cap of 25 tokens leaves 0/);
  });

  it("a scheduled run stops at the monthly cap: the cron pass starts it, nothing is sent past the cap, the run says why, run_token_cap fires", async () => {
    sim.sim.setConfig({ blockPageRate: 1, residentialUnblockShare: 0 });
    const urls = hostsUrls(5, 2, "sched-cap");
    // Every page is blocked at every rung: 10 URLs × 4 rungs would cost 40 tokens; the month allows 25.
    const c = await createCollection(
      { name: "scheduled capped", list: parseValues(urls), schedule: "0 * * * *", monthlyMaxTokens: 25 },
      "test",
    );
    const sendsOf = async (runId: string) =>
      (await db().runChunk.findMany({ where: { runId, jobId: { not: null } }, select: { size: true } })).reduce(
        (n, ch) => n + ch.size,
        0,
      );
    // The tick is due (as after the hour): the external scheduler's unit (POST /api/cron/collections) runs the pass.
    const tick = async () => {
      await db().collection.update({ where: { id: c.id }, data: { nextRunAt: new Date(Date.now() - 1000) } });
      const pass = await cronCollections();
      const mine = pass.ticks.filter((f) => f.collectionId === c.id);
      expect(mine).toEqual([expect.objectContaining({ outcome: "started" })]);
      return mine[0]?.runId ?? "";
    };

    const first = await runToEnd(await tick());
    expect(first.trigger).toBe("schedule");
    expect(first.tokens.capReason).toMatch(
      /^maxTokens 25 reached .*the collection.s monthly cap of 25 tokens leaves 25/,
    );
    expect(first.tokens.charged).toBeLessThanOrEqual(25);
    expect(await sendsOf(first.id)).toBeLessThanOrEqual(25);
    const capped = (await urlsOf(first.id)).filter((u) => u.errorCode === "token_cap");
    expect(capped.length).toBeGreaterThan(0);
    expect(first.counts.failed).toBe(urls.length);

    // The month is spent: the next tick's run starts (a scheduled run is not refused) and sends nothing.
    const second = await runToEnd(await tick());
    expect(await sendsOf(second.id)).toBe(0);
    expect(second.tokens.charged).toBe(0);
    expect(second.tokens.capReason).toMatch(/monthly cap of 25 tokens leaves 0/);
    expect((await urlsOf(second.id)).every((u) => u.errorCode === "token_cap")).toBe(true);
    expect((await getCollection(c.id)).tokensThisMonth).toBe(first.tokens.charged);

    // The alert pass (POST /api/cron/alerts) fires run_token_cap, naming the run.
    await runAlertPass();
    const alert = await db().alertState.findUniqueOrThrow({ where: { rule: "run_token_cap" } });
    expect(alert.state).toBe("firing");
    expect(alert.summary).toMatch(/scheduled capped/);
  });
});
