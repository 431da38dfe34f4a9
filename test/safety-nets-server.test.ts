// The safety nets against a real Tally (what `npm start` runs: receiver, JSON API, runs in the server) and the
// simulator over real HTTP. The server's own worker is off so each test decides when the queue is
// drained (by the real worker, in this process, on the same database).
import { budgetViewSchema } from "@/lib/platform/budget-contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { flushApiCalls, getPlatformClient } from "@/lib/platform/shared-client";
import { submitJob } from "@/lib/jobs/submit";
import { sleepMs, startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import type { TestDb } from "./db";
import {
  apiClient,
  drain,
  outcomeEventsPerJob,
  outcomeOf,
  quiet,
  startTallyBehindProxy,
  type startProxy,
  waitRun,
} from "./safety-nets-harness";
import type { TallyServer } from "./tally-server";

let sim: Awaited<ReturnType<typeof startSim>>;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let t: TestDb;
let tally: TallyServer;
const api = apiClient(() => tally.url);
type Sub = {
  id: string;
  eventType: string;
  url: string;
  platformId: string;
  secretLast4: string | null;
  rotatedAt: string | null;
};
let subs: Record<string, Sub> = {};

beforeAll(async () => {
  sim = await startSim({
    config: { jobDurationMs: [20, 60], deliveryRetryScheduleMs: [0, 20, 40], slowResponseMs: 700 },
  });
  // The server's own worker is off: each test drains the queue when it decides.
  ({ proxy, t, tally } = await startTallyBehindProxy(sim, { TALLY_WORKER: "off" }));
  const reg = await api("/api/subscriptions/register", { body: {} });
  expect(reg.status).toBe(200);
  expect(reg.json.registered).toEqual(["extract_completed", "batch_completed", "crawl_completed"]);
  const items = reg.json.items as Sub[];
  subs = Object.fromEntries(items.map((s) => [s.eventType, s]));
}, 60_000);

afterAll(async () => {
  await flushApiCalls().catch(() => undefined);
  await tally?.stop();
  await proxy?.close();
  await sim?.close();
  await t?.cleanup();
});

describe("JSON API", () => {
  it("lists subscriptions without secrets and registers idempotently", async () => {
    const list = await api("/api/subscriptions");
    expect(list.status).toBe(200);
    const items = list.json.items as Array<Record<string, unknown>>;
    expect(items).toHaveLength(3);
    for (const s of items) {
      expect(Object.keys(s).sort()).toEqual([
        "eventType",
        "id",
        "isActive",
        "platformId",
        "previousSecretExpiresAt",
        "rotatedAt",
        "secretLast4",
        "url",
      ]);
      expect(s.url).toBe(`${tally.url}/webhooks/geonode/${String(s.id)}`);
      expect(s.secretLast4).toMatch(/^.{4}$/);
    }
    const stored = await db().subscription.findMany({ select: { secret: true } });
    const secrets = stored.map((s) => s.secret);
    expect(secrets).toHaveLength(3);
    for (const secret of secrets) {
      expect(secret?.length ?? 0, "a stored secret").toBeGreaterThanOrEqual(16);
      expect(list.text).not.toContain(secret);
    }
    const again = await api("/api/subscriptions/register", { body: {} });
    expect(again.json).toMatchObject({
      registered: [],
      unchanged: ["extract_completed", "batch_completed", "crawl_completed"],
    });
  });

  it("answers 400 with a reason for bad input, 404 for unknown ids, 401 without credentials, and audits mutations", async () => {
    const bad = await api("/api/operations/reconcile", { body: { olderThanSeconds: -5 } });
    expect(bad.status).toBe(400);
    expect(String(bad.json.message)).toContain("olderThanSeconds");
    expect((await api("/api/operations/reconcile", { body: { since: "yesterday" } })).status).toBe(400);
    const badScope = await api("/api/operations/reconcile", { body: { scope: "all" } });
    expect(badScope.status).toBe(400);
    expect(String(badScope.json.message)).toContain('scope must be "recent" or "full"');
    expect((await api("/api/operations/replay", { body: { subscriptionId: "nope" } })).status).toBe(404);
    expect((await api("/api/subscriptions/nope/rotate", { body: {} })).status).toBe(404);
    expect(
      (await api(`/api/subscriptions/${subs.crawl_completed.id}/secret`, { body: { secret: "short" } })).status,
    ).toBe(400);
    expect((await api("/api/operations/nope")).status).toBe(404);
    expect((await api("/api/operations", { auth: false })).status).toBe(401);
    const audit = await db().auditLog.findMany({
      where: { action: { in: ["subscriptions.register", "operations.replay"] } },
      orderBy: { id: "asc" },
    });
    expect(audit.map((a) => [a.action, a.actor, a.ok])).toEqual([
      ["subscriptions.register", "token:env", true],
      ["subscriptions.register", "token:env", true],
      ["operations.replay", "token:env", false],
    ]);
  });
});

describe("reconciliation", () => {
  it("with 30% of webhooks dropped, one run leaves every settled job with an outcome; two concurrent starts are one run", async () => {
    sim.sim.setConfig({ webhookDropRate: 0.3 });
    const kinds = ["extract", "batch", "crawl"] as const;
    const ids = (
      await Promise.all(
        Array.from({ length: 30 }, (_, i) => {
          const kind = kinds[i % 3];
          const url = `https://example.com/drop/${i}`;
          return submitJob(
            kind === "batch"
              ? { kind, urls: [url, `${url}/2`] }
              : kind === "crawl"
                ? { kind, url, depth: 1, limit: 2 }
                : { kind, url },
          );
        }),
      )
    ).map((j) => j.jobId);
    await quiet(sim, ids);
    sim.sim.setConfig({ webhookDropRate: 0 });
    const perJob = sim.sim.state().perJob;
    const dropped = ids.filter((id) => perJob[id].delivered === 0);
    expect(dropped.length).toBeGreaterThan(3);
    await drain();
    const before = await outcomeOf(ids);
    expect(ids.filter((id) => before.get(id) === "pending").sort()).toEqual(dropped.sort());

    sim.sim.injectFaults({ kind: "slow", count: 1 }); // keeps the first run busy while the second request arrives
    const [a, b] = await Promise.all([
      api("/api/operations/reconcile", { body: { olderThanSeconds: 0 } }),
      api("/api/operations/reconcile", { body: { olderThanSeconds: 0 } }),
    ]);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.json.runId).toBe(b.json.runId);
    expect([a.json.alreadyRunning, b.json.alreadyRunning].sort()).toEqual([false, true]);
    const run = await waitRun(api, String(a.json.runId));
    expect(run).toMatchObject({ kind: "reconcile", state: "succeeded" });
    const summary = run.summary as Record<string, unknown>;
    expect(summary.enqueued).toBe(dropped.length);
    expect(summary).toMatchObject({ stillRunning: 0, subscriptions: { checked: 3, ok: 3, drift: [] } });
    expect(await db().operationRun.count({ where: { kind: "reconcile" } })).toBe(1);

    await drain();
    const after = await outcomeOf(ids);
    expect(ids.map((id) => after.get(id))).toEqual(ids.map(() => "stored"));
    expect(await outcomeEventsPerJob(ids)).toEqual(ids.map(() => 1));
  });

  it("stores a job whose webhook came before it settled (and whose queue item was then lost)", async () => {
    sim.sim.setConfig({ earlyWebhookRate: 1, earlyWebhookLagMs: 1200 });
    const { jobId } = await submitJob({ kind: "extract", url: "https://example.com/early" });
    await waitFor(
      "the early webhook's receipt",
      async () => (await db().receipt.count({ where: { jobId } })) === 1,
      5000,
    );
    sim.sim.setConfig({ earlyWebhookRate: 0 });
    await drain(); // the worker sees "processing" and reschedules
    expect(await db().job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({
      outcome: "pending",
      platformStatus: "processing",
    });
    // The source article's worker drops a job that is not settled yet; a crash can lose it too.
    await db().queueItem.updateMany({ where: { jobId }, data: { state: "done", dedupeKey: null } });
    await waitFor(
      "the job to settle",
      async () => (await getPlatformClient().getJob("extract", jobId)).status === "completed",
      5000,
    );

    // A recent run (the watermark was set by the runs before) still finds a job created since.
    const start = await api("/api/operations/reconcile", { body: { olderThanSeconds: 0, scope: "recent" } });
    const run = await waitRun(api, String(start.json.runId));
    expect((run.summary as Record<string, unknown>).enqueuedIds).toEqual([jobId]);
    expect(run.summary).toMatchObject({
      scope: "recent",
      byKind: { extract: { scope: "recent", from: expect.any(String) } },
    });
    // The server's own calls, by purpose, in the API budget (its counts flushed by the request itself).
    const budget = await api("/api/budget");
    expect(budget.status).toBe(200);
    const view = budgetViewSchema.parse(budget.json);
    expect(view.byPurpose.find((p) => p.purpose === "reconcile")?.calls).toBeGreaterThan(0);
    expect(view.byPurpose.find((p) => p.purpose === "drift check")?.calls).toBeGreaterThan(0);
    expect(view.budgetPerMinute).toBe(view.requestsPerSecond * 60);
    await drain();
    expect(await db().job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({
      outcome: "stored",
      resultCount: 1,
    });
    expect(await outcomeEventsPerJob([jobId])).toEqual([1]);
  });
});

describe("secret rotation", () => {
  it("mid-traffic: deliveries signed with the new secret before Tally stored it get 401, and the automatic replay recovers each once", async () => {
    sim.sim.setConfig({ deliveryRetryScheduleMs: [0], jobDurationMs: [30, 300] }); // no platform retries: only the replay can recover a 401
    const sub = subs.extract_completed;
    const ids: string[] = [];
    let traffic = true;
    const pump = (async () => {
      for (let i = 0; traffic; i++) {
        ids.push((await submitJob({ kind: "extract", url: `https://example.com/rotate/${i}` })).jobId);
        await sleepMs(25);
      }
    })();
    await sleepMs(400);
    proxy.state.rotateDelayMs = 1500;
    const rotated = await api(`/api/subscriptions/${sub.id}/rotate`, { body: {} });
    proxy.state.rotateDelayMs = 0;
    await sleepMs(500);
    traffic = false;
    await pump;
    expect(rotated.status).toBe(202);
    const secret = String(rotated.json.secret);
    expect(secret.length).toBeGreaterThan(8);
    await quiet(sim, ids);

    const run = await waitRun(api, String(rotated.json.runId));
    expect(run).toMatchObject({ kind: "rotate", state: "succeeded" });
    const perJob = sim.sim.state().perJob;
    const locked = ids.filter((id) => perJob[id].lastHttpStatus === 401);
    expect(locked.length).toBeGreaterThan(0);
    expect(await db().inboundDelivery.count({ where: { subscriptionId: sub.id, status: 401 } })).toBe(locked.length);
    const summary = run.summary as {
      replay: { enqueued: number; subscriptions: Array<{ status401: number }> };
      replayRunId: string;
    };
    expect(summary.replay.enqueued).toBe(locked.length);
    expect(summary.replay.subscriptions[0].status401).toBe(locked.length);

    await drain();
    const outcomes = await outcomeOf(ids);
    expect(ids.filter((id) => outcomes.get(id) !== "stored")).toEqual([]);
    expect(await outcomeEventsPerJob(ids)).toEqual(ids.map(() => 1));
    expect(await db().result.count({ where: { jobId: { in: ids } } })).toBe(ids.length);

    // The secret was shown once, in the rotation's answer: not in lists, runs or the server's logs.
    const list = await api("/api/subscriptions");
    const shown = (list.json.items as Sub[]).find((s) => s.id === sub.id);
    expect(shown).toMatchObject({ secretLast4: secret.slice(-4) });
    expect(shown?.rotatedAt).not.toBeNull();
    expect(list.text + JSON.stringify(run) + tally.output()).not.toContain(secret);
    expect(
      await db().secretRotation.findMany({ where: { subscriptionId: sub.id }, select: { source: true, actor: true } }),
    ).toEqual([{ source: "rotated", actor: "token:env" }]);
    sim.sim.setConfig({ deliveryRetryScheduleMs: [0, 20, 40], jobDurationMs: [20, 60] });
  });

  it("a secret rotated elsewhere: storing it replays the 401s since the spike began", async () => {
    sim.sim.setConfig({ deliveryRetryScheduleMs: [0] });
    const sub = subs.batch_completed;
    const { secret } = await getPlatformClient().rotateWebhookSecret(sub.platformId); // the platform's own dashboard
    const ids = (
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => submitJob({ kind: "batch", urls: [`https://example.com/elsewhere/${i}`] })),
      )
    ).map((j) => j.jobId);
    await quiet(sim, ids);
    const perJob = sim.sim.state().perJob;
    expect(ids.map((id) => perJob[id].lastHttpStatus)).toEqual(ids.map(() => 401));

    const set = await api(`/api/subscriptions/${sub.id}/secret`, { body: { secret } });
    expect(set.status).toBe(202);
    expect(set.text).not.toContain(secret);
    const run = await waitRun(api, String(set.json.runId));
    expect(run).toMatchObject({
      kind: "rotate",
      state: "succeeded",
      summary: { source: "set_elsewhere", replay: { enqueued: 8 } },
    });
    await drain();
    const outcomes = await outcomeOf(ids);
    expect(ids.map((id) => outcomes.get(id))).toEqual(ids.map(() => "stored"));

    // New deliveries verify with the stored secret.
    const next = await submitJob({ kind: "batch", urls: ["https://example.com/elsewhere/after"] });
    await quiet(sim, [next.jobId]);
    expect(sim.sim.state().perJob[next.jobId].lastHttpStatus).toBe(200);
    sim.sim.setConfig({ deliveryRetryScheduleMs: [0, 20, 40] });
  });
});
