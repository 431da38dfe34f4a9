// API economy (issue 13), against the simulator over real HTTP and a real database (SQLite, and
// PostgreSQL through vitest.postgres.config.mts): incremental reconciliation (watermark, overlap, full
// scan when due), the polling list sweep and its cost in pages, and every purpose in the accounting.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setConfigForTests } from "@/lib/config";
import { db } from "@/lib/db";
import { getBudgetView } from "@/lib/platform/budget-view";
import { submitJob } from "@/lib/jobs/submit";
import { reconcileBodySchema } from "@/lib/operations/contracts";
import { collect, type CallInfo } from "@/lib/platform";
import { CALL_PURPOSES } from "@/lib/platform/purpose";
import { addCallObserver, flushApiCalls, getPlatformClient, resetPlatformClients } from "@/lib/platform/shared-client";
import { pollDueJobs, schedulePollsForSilentJobs } from "@/lib/safety-nets/poller";
import { startReconcile } from "@/lib/safety-nets/reconcile";
import { startReplay } from "@/lib/safety-nets/replay";
import { OVERLAP_MS } from "@/lib/safety-nets/watermark";
import { registerSubscriptions } from "@/lib/subscriptions/register";
import { rotateSubscriptionSecret } from "@/lib/subscriptions/rotate";
import { API_KEY, startReceiver, startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import { drain } from "./safety-nets-harness";
import { createTestDb, type TestDb } from "./db";
import { openSql } from "./sql";
import { TEST_STORE } from "./store";

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;

beforeAll(async () => {
  sim = await startSim({ config: { retryAfterSeconds: 1, retainJobs: 100_000 } });
  resetPlatformClients();
  t = await createTestDb({
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_API_RPS: "1000",
    TALLY_PUBLIC_URL: "http://127.0.0.1:9",
  });
});
afterAll(async () => {
  await flushApiCalls().catch(() => undefined);
  await sim?.close();
  await t?.cleanup();
});

/** The platform's created_at of each job (read with a client of the test's own, not accounted). */
async function createdAtOf(ids: string[]): Promise<Map<string, Date>> {
  const client = sim.client();
  const out = new Map<string, Date>();
  for (const id of ids) out.set(id, new Date((await client.getExtractJob(id)).created_at));
  return out;
}

async function reconcileRun(params: Parameters<typeof startReconcile>[0]) {
  const run = await (await startReconcile(params, "test")).done;
  expect(run.error).toBeNull();
  const summary = run.summary as {
    scope: string;
    enqueued: number;
    enqueuedIds: string[];
    byKind: Record<
      string,
      { scope: string; from: string | null; pages: number; listed: number; watermark: string | null }
    >;
  };
  return summary;
}

const watermark = async () =>
  (await db().reconcileWatermark.findUniqueOrThrow({ where: { kind: "extract" } })).createdFrom;

describe("incremental reconciliation", () => {
  let old: string[] = [];
  let recent: string[] = [];

  it("a recent run reads only the window past the watermark; a job settled before it but missing its outcome is found by the next full scan", async () => {
    old = sim.sim.seedJobs({ count: 250, kind: "extract", status: "completed", ageSeconds: 7200 });
    recent = sim.sim.seedJobs({ count: 30, kind: "extract", status: "completed", ageSeconds: 3600 });
    const now = new Date();
    await db().job.createMany({
      data: [...old, ...recent].map((id) => ({ id, kind: "extract", outcome: "stored", outcomeAt: now })),
    });

    // First run: no watermark yet, so a full scan of the whole history (3 pages of extract jobs).
    const first = await reconcileRun({});
    expect(first.byKind.extract).toMatchObject({ scope: "full", from: null, pages: 3, listed: 280 });
    expect(first.enqueued).toBe(0);
    const newest = Math.max(...[...(await createdAtOf(recent)).values()].map((d) => d.getTime()));
    expect((await watermark())?.getTime()).toBe(newest);

    // The oldest job loses its outcome (say a restore from an old backup): it is long before the window.
    await db().job.update({ where: { id: old[0] }, data: { outcome: "pending", outcomeAt: null } });

    const second = await reconcileRun({});
    expect(second.byKind.extract).toMatchObject({
      scope: "recent",
      from: new Date(newest - OVERLAP_MS).toISOString(),
      pages: 1,
      listed: 30,
    });
    expect(second.enqueuedIds).not.toContain(old[0]);

    // The next full scan is due once TALLY_RECONCILE_FULL_SCAN_HOURS have passed since the last one.
    await db().reconcileWatermark.updateMany({ data: { lastFullScanAt: new Date(Date.now() - 25 * 3_600_000) } });
    const third = await reconcileRun({});
    expect(third.byKind.extract).toMatchObject({ scope: "full", pages: 3 });
    expect(third.enqueuedIds).toEqual([old[0]]);
    // It is enqueued: the durable queue keeps it until it has an outcome, so it does not hold the
    // watermark back (issue 28: a queued backlog was re-listed by every run until it drained).
    expect((await watermark())?.getTime()).toBe(newest);
    await drain();
    expect((await db().job.findUniqueOrThrow({ where: { id: old[0] } })).outcome).toBe("stored");
    const fourth = await reconcileRun({ scope: "full" });
    expect(fourth.byKind.extract.scope).toBe("full");
    expect((await watermark())?.getTime()).toBe(newest);
  }, 30_000);

  it("a job created inside the overlap is never skipped, and once it is queued the watermark passes it", async () => {
    const mark = (await watermark())!;
    // A job the platform created two minutes before the watermark that Tally never heard of.
    const ageSeconds = Math.round((Date.now() - mark.getTime()) / 1000) + 120;
    const [late] = sim.sim.seedJobs({ count: 1, kind: "extract", status: "completed", ageSeconds });
    const lateAt = (await createdAtOf([late])).get(late)!;
    expect(lateAt.getTime()).toBeLessThan(mark.getTime());
    expect(lateAt.getTime()).toBeGreaterThan(mark.getTime() - OVERLAP_MS);

    const run = await reconcileRun({ scope: "recent" });
    expect(run.byKind.extract).toMatchObject({ scope: "recent", pages: 1 });
    expect(run.enqueuedIds).toEqual([late]);
    expect((await watermark())?.getTime()).toBe(mark.getTime());

    await drain();
    const after = await reconcileRun({ scope: "recent" });
    expect(after.enqueued).toBe(0);
    expect((await watermark())?.getTime()).toBe(mark.getTime());
  }, 30_000);

  it("the operations API and the CLI take scope recent or full, and nothing else", () => {
    expect(reconcileBodySchema.parse({ scope: "full" })).toEqual({ scope: "full" });
    expect(reconcileBodySchema.parse({})).toEqual({});
    const bad = reconcileBodySchema.safeParse({ scope: "everything" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('scope must be "recent" or "full"');
  });
});

describe("list sweep", () => {
  it("finds every settled job of a mixed set with the list pages it should, and calls per job only for the straggler", async () => {
    setConfigForTests({ ...t.config, TALLY_DELIVERY_MODE: "polling", TALLY_RECONCILE_INTERVAL_MINUTES: 0 });
    sim.sim.setConfig({ jobDurationMs: [600_000, 600_000] });
    try {
      const running = (
        await Promise.all(
          Array.from({ length: 30 }, (_, i) => submitJob({ kind: "extract", url: `https://example.com/sweep/${i}` })),
        )
      ).map((j) => j.jobId);
      const completed = sim.sim.seedJobs({ count: 120, kind: "extract", status: "completed", ageSeconds: 0 });
      const failed = sim.sim.seedJobs({ count: 20, kind: "extract", status: "failed", ageSeconds: 0 });
      const cancelled = sim.sim.seedJobs({ count: 10, kind: "extract", status: "cancelled", ageSeconds: 0 });
      const unrelated = sim.sim.seedJobs({ count: 40, kind: "extract", status: "completed", ageSeconds: 0 });
      const [straggler] = sim.sim.seedJobs({ count: 1, kind: "extract", status: "completed", ageSeconds: 7200 });
      const settled = [...completed, ...failed, ...cancelled];
      const created = await createdAtOf([...settled, straggler]);
      const now = new Date();
      const polled = (id: string) => ({
        id,
        kind: "extract",
        platformCreatedAt: created.get(id),
        nextPollAt: now,
        pollDeadlineAt: new Date(now.getTime() + 3_600_000),
      });
      await db().job.createMany({ data: [...settled, straggler].map(polled) });
      await db().job.updateMany({ where: { id: { in: running } }, data: { nextPollAt: now } });
      // Five of the unrelated jobs Tally has already stored; the other 35 it never submitted.
      await db().job.createMany({
        data: unrelated.slice(0, 5).map((id) => ({ id, kind: "extract", outcome: "stored", outcomeAt: now })),
      });

      const calls: CallInfo[] = [];
      const stop = addCallObserver((c) => calls.push(c));
      const batch = await pollDueJobs({ limit: 500 });
      stop();

      // 30 running + 150 settled + 40 unrelated created in the window: 3 pages of 100; the straggler
      // (two hours old, outside the window) costs one status call.
      expect(calls.filter((c) => c.purpose === "poll sweep").map((c) => c.endpoint)).toEqual(
        Array(3).fill("GET /v1/extract/jobs"),
      );
      expect(calls.filter((c) => c.purpose === "poll").map((c) => c.endpoint)).toEqual(["GET /v1/extract/{job_id}"]);
      expect(calls).toHaveLength(4);
      expect(batch).toMatchObject({ sweeps: 1, sweepPages: 3, settled: 151, notYet: 30 });

      const items = await db().queueItem.findMany({
        where: { kind: "process_job" },
        select: { jobId: true, payload: true },
      });
      const queued = new Set(items.filter((i) => JSON.parse(i.payload).source === "poll").map((i) => i.jobId));
      expect([...settled, straggler].every((id) => queued.has(id))).toBe(true);
      expect([...running, ...unrelated].some((id) => queued.has(id))).toBe(false);
      expect(await db().job.count({ where: { id: { in: unrelated } } })).toBe(5);
      expect(await db().receipt.count({ where: { jobId: { in: [...settled, straggler] }, source: "poll" } })).toBe(151);
      const rows = await db().job.findMany({ where: { id: { in: running } } });
      expect(rows.every((r) => r.pollCount === 1 && r.nextPollAt !== null && r.nextPollAt > now)).toBe(true);
      // They all wait for the same next sweep, so the ones still running cost one list, not 30 calls.
      expect(new Set(rows.map((r) => r.nextPollAt?.getTime())).size).toBe(1);

      // Nothing is due before the next sweep: polling again at once calls nothing.
      const again: CallInfo[] = [];
      const stop2 = addCallObserver((c) => again.push(c));
      await pollDueJobs({ limit: 500 });
      stop2();
      expect(again).toEqual([]);
      await db().job.updateMany({ where: { id: { in: running } }, data: { nextPollAt: null, outcome: "cancelled" } });
      await drain();
    } finally {
      setConfigForTests(t.config);
      sim.sim.setConfig({ jobDurationMs: [20, 60] });
    }
  }, 60_000);
});

describe("list sweep in webhook mode", () => {
  it("sweeps the jobs whose webhook never came, once they are silent for long enough", async () => {
    // Batch jobs that settled ten minutes ago; Tally submitted them but heard nothing since.
    const silent = sim.sim.seedJobs({ count: 6, kind: "batch", status: "completed", ageSeconds: 600 });
    const old = new Date(Date.now() - 11 * 60_000);
    await db().job.createMany({ data: silent.map((id) => ({ id, kind: "batch", createdAt: old })) });
    expect(await schedulePollsForSilentJobs()).toBe(6);
    const calls: CallInfo[] = [];
    const stop = addCallObserver((c) => calls.push(c));
    const batch = await pollDueJobs({ limit: 50 });
    stop();
    expect(calls.map((c) => [c.purpose, c.endpoint])).toEqual([["poll sweep", "GET /v1/batch/jobs"]]);
    expect(batch).toMatchObject({ sweeps: 1, settled: 6 });
    expect(await db().receipt.count({ where: { jobId: { in: silent }, source: "poll" } })).toBe(6);
    await drain();
    expect(new Set((await db().job.findMany({ where: { id: { in: silent } } })).map((j) => j.outcome))).toEqual(
      new Set(["stored"]),
    );
  }, 30_000);
});

describe("accounting", () => {
  // PostgreSQL only: SQLite's driver waits for a lock synchronously in this very process, so no other
  // connection here could hold the table and then let go of it.
  it.runIf(TEST_STORE === "postgres")(
    "a flush returns only once the counts of a flush already under way are written too",
    async () => {
      await flushApiCalls();
      await db().apiCallMinute.deleteMany({});
      await getPlatformClient().listWebhooks({ purpose: "drift check" });
      // Another connection holds the table, so the first flush (the timer's, say) waits on it.
      const lock = await openSql(t.url);
      await lock.run(`BEGIN; LOCK TABLE "ApiCallMinute" IN EXCLUSIVE MODE;`);
      const first = flushApiCalls();
      let secondDone = false;
      const second = flushApiCalls().then(() => (secondDone = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(secondDone).toBe(false); // it has nothing of its own to write, but the first has not landed
      await lock.run("COMMIT;");
      await lock.close();
      await Promise.all([first, second]);
      expect((await db().apiCallMinute.findMany()).map((r) => [r.purpose, r.count])).toEqual([["drift check", 1]]);
    },
  );

  it("counts the calls of every purpose and answer class, per minute in the database", async () => {
    await flushApiCalls();
    await db().apiCallMinute.deleteMany({});
    setConfigForTests({ ...t.config, TALLY_RECONCILE_INTERVAL_MINUTES: 0, TALLY_ROTATION_SETTLE_SECONDS: 0 });
    try {
      // register, submit, worker refetch, result pages (a batch of 60 URLs is two result pages of 50)
      const registered = await registerSubscriptions("test");
      expect(registered.registered).toHaveLength(3);
      const extract = await submitJob({ kind: "extract", url: "https://example.com/acct" });
      const batch = await submitJob({
        kind: "batch",
        urls: Array.from({ length: 60 }, (_, i) => `https://example.com/acct/${i}`),
      });
      await waitFor(
        "jobs settled",
        () =>
          [extract.jobId, batch.jobId].every((id) =>
            ["completed", "failed"].includes(sim.sim.state().perJob[id]?.status ?? ""),
          ),
        10_000,
      );
      // Their webhooks go nowhere (the public URL is unreachable): reconciliation (with its drift check) finds them.
      const found = await reconcileRun({ scope: "full", olderThanSeconds: 0 });
      expect(found.enqueuedIds).toEqual(expect.arrayContaining([extract.jobId, batch.jobId]));
      await drain();

      // poll (one due job) and poll sweep (four due jobs of another kind)
      const crawls = sim.sim.seedJobs({ count: 4, kind: "crawl", status: "completed", ageSeconds: 0 });
      const now = new Date();
      await db().job.createMany({
        data: crawls.map((id) => ({
          id,
          kind: "crawl",
          nextPollAt: now,
          pollDeadlineAt: new Date(now.getTime() + 60_000),
        })),
      });
      const [one] = sim.sim.seedJobs({ count: 1, kind: "batch", status: "completed", ageSeconds: 0 });
      await db().job.create({
        data: { id: one, kind: "batch", nextPollAt: now, pollDeadlineAt: new Date(now.getTime() + 60_000) },
      });
      await pollDueJobs({ limit: 50 });

      // replay, rotate
      expect((await (await startReplay({}, "test")).done).state).toBe("succeeded");
      const sub = await db().subscription.findFirstOrThrow({ where: { eventType: "extract_completed" } });
      const rotated = await rotateSubscriptionSecret(sub.id, "test");
      expect(rotated.stored).toBe(true);
      if (rotated.stored) await rotated.done;

      // a 4xx and a 429 (the client waits out Retry-After and tries again)
      await expect(getPlatformClient().getJob("extract", randomUUID(), { purpose: "poll" })).rejects.toThrow();
      sim.sim.injectFaults({ kind: "rate_limit", count: 1, retryAfter: "seconds" });
      await getPlatformClient().listWebhooks({ purpose: "drift check" });

      const view = await getBudgetView();
      const calls = new Map(view.byPurpose.map((p) => [p.purpose, p.calls]));
      for (const purpose of CALL_PURPOSES.filter((p) => p !== "other"))
        expect({ purpose, calls: calls.get(purpose) ?? 0 }).toEqual({ purpose, calls: expect.any(Number) });
      expect(CALL_PURPOSES.filter((p) => p !== "other" && (calls.get(p) ?? 0) === 0)).toEqual([]);
      expect(calls.get("other") ?? 0).toBe(0);
      expect(view.answers["2xx"]).toBeGreaterThan(0);
      expect(view.answers["4xx"]).toBeGreaterThanOrEqual(1);
      expect(view.answers["429"]).toBe(1);
      expect(view.rateLimited.answers).toBe(1);
      expect(view.totalCalls).toBe(view.minutes.reduce((n, m) => n + m.total, 0));
      expect(view.finished.total).toBeGreaterThanOrEqual(2);
      expect(view.perJob.allButSubmits).not.toBeNull();
      // Stored per minute, purpose and answer: a handful of rows, not one per call.
      const rows = await db().apiCallMinute.findMany();
      expect(rows.length).toBeLessThan(view.totalCalls);
      expect(rows.every((r) => r.minute.getSeconds() === 0 && CALL_PURPOSES.some((p) => p === r.purpose))).toBe(true);
    } finally {
      setConfigForTests(t.config);
    }
  }, 60_000);
});

describe("replay reads only what it needs", () => {
  it("stops paging once past `since` on the newest-first log, and a replay after the mirror's mark reads only newer records", async () => {
    sim.sim.setConfig({ deliveryRetryScheduleMs: [0] });
    const receiver = await startReceiver(() => 503);
    try {
      const hook = await getPlatformClient().createWebhook({ url: receiver.url, event_type: "extract_completed" });
      await db().subscription.create({
        data: {
          id: "sub-mirror",
          eventType: "extract_completed",
          url: receiver.url,
          platformId: hook.id,
          secret: hook.secret,
        },
      });
      const ids = (
        await Promise.all(
          Array.from({ length: 150 }, (_, i) => submitJob({ kind: "extract", url: `https://example.com/mirror/${i}` })),
        )
      ).map((j) => j.jobId);
      const log = sim.client();
      await waitFor(
        "150 failed deliveries",
        async () => {
          const items = (await log.listDeliveries(hook.id).next()).value?.items ?? [];
          return (
            items.length === 100 &&
            items.every((d) => d.status !== "pending") &&
            (await collect(log.listDeliveries(hook.id))).length === 150
          );
        },
        15_000,
      );

      type Report = {
        pages: number;
        deliveriesRead: number;
        failedJobs: number;
        enqueued: number;
        alreadyQueued: number;
      };
      // Each replay's report and the delivery-log pages it really requested.
      const replayed = async (params: Parameters<typeof startReplay>[0]) => {
        const calls: CallInfo[] = [];
        const stop = addCallObserver((c) => calls.push(c));
        const run = await (await startReplay({ subscriptionId: "sub-mirror", ...params }, "test")).done;
        stop();
        expect(run.error).toBeNull();
        const requested = calls.filter(
          (c) => c.purpose === "replay" && c.endpoint === "GET /v1/webhooks/{webhook_id}/deliveries",
        ).length;
        return { ...(run.summary as { subscriptions: Report[] }).subscriptions[0], requested };
      };
      // The first reads the whole log (two pages) into the mirror.
      expect(await replayed({})).toMatchObject({
        requested: 2,
        pages: 2,
        deliveriesRead: 150,
        failedJobs: 150,
        enqueued: 150,
      });
      // `since` after every record: the first page already reaches past it, so the second is never requested.
      expect(await replayed({ since: new Date(Date.now() + 60_000) })).toMatchObject({
        requested: 1,
        deliveriesRead: 0,
        failedJobs: 0,
      });
      // The mirror is complete up to its mark: a replay reads only what is newer (here nothing: one page
      // to see it) and still finds every missed job in the mirror.
      await db().reconcileWatermark.update({
        where: { kind: `deliveries:${hook.id}` },
        data: { createdFrom: new Date(Date.now() + 20 * 60_000) },
      });
      expect(await replayed({})).toMatchObject({
        requested: 1,
        deliveriesRead: 0,
        failedJobs: 150,
        enqueued: 0,
        alreadyQueued: 150,
      });
      expect(await db().queueItem.count({ where: { jobId: { in: ids } } })).toBe(150);
    } finally {
      await receiver.close();
      sim.sim.setConfig({ deliveryRetryScheduleMs: [0, 20, 40] });
    }
  }, 60_000);
});
