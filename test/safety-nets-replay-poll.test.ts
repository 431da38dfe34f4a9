// Replay from the delivery log (more than one page, a Set of job ids, jobs with an outcome skipped,
// a 404 reported clearly) and the polling fallback end to end through a 429 storm. In-process
// against the simulator over real HTTP; the queue is drained by the real worker.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig, setConfigForTests } from "@/lib/config";
import { db } from "@/lib/db";
import { workerRegistry } from "@/lib/worker/registry";
import { addCallObserver, flushApiCalls, getPlatformClient, resetPlatformClients } from "@/lib/platform/shared-client";
import { pollerStats, schedulePollsForSilentJobs } from "@/lib/safety-nets/poller";
import { NO_DELIVERY_LOG, startReplay } from "@/lib/safety-nets/replay";
import { startSchedules } from "@/lib/worker/schedules";
import { submitJob } from "@/lib/jobs/submit";
import { createWorker } from "@/lib/worker/worker";
import { API_KEY, startReceiver, startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import { createTestDb, type TestDb } from "./db";

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;

beforeAll(async () => {
  sim = await startSim({ config: { deliveryRetryScheduleMs: [0, 5, 5], retryAfterSeconds: 1 } });
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

const drain = () => createWorker({ registry: workerRegistry, concurrency: 4, leaseMs: 10_000, owner: "test" }).drain();
const outcomes = async (ids: string[]) =>
  (await db().job.findMany({ where: { id: { in: ids } }, select: { outcome: true } })).map((j) => j.outcome);

describe("replay from the delivery log", () => {
  it("reads every page, enqueues each job none of whose attempts got a 2xx once, and skips recorded outcomes", async () => {
    // Jobs whose id ends in 0-3 get through on their third attempt; every other attempt gets a 503.
    const lucky = (jobId: string) => /[0-3]$/.test(jobId);
    const attempts = new Map<string, number>();
    const receiver = await startReceiver((req) => {
      const jobId = String(JSON.parse(req.body.toString()).data.job_id);
      const n = (attempts.get(jobId) ?? 0) + 1;
      attempts.set(jobId, n);
      return lucky(jobId) && n === 3 ? 200 : 503;
    });
    const hook = await getPlatformClient().createWebhook({ url: receiver.url, event_type: "extract_completed" });
    await db().subscription.create({
      data: {
        id: "sub-replay",
        eventType: "extract_completed",
        url: receiver.url,
        platformId: hook.id,
        secret: hook.secret,
      },
    });

    const ids = (
      await Promise.all(
        Array.from({ length: 45 }, (_, i) => submitJob({ kind: "extract", url: `https://example.com/replay/${i}` })),
      )
    ).map((j) => j.jobId);
    await waitFor(
      "every delivery attempted three times",
      () => {
        const d = sim.sim.state().deliveries;
        return d.total === 135 && d.byStatus.pending === 0;
      },
      10_000,
    );
    const unlucky = ids.filter((id) => !lucky(id));
    const doneAlready = unlucky[0];
    await db().job.update({ where: { id: doneAlready }, data: { outcome: "stored" } });

    const run = await startReplay({ subscriptionId: "sub-replay" }, "test");
    const end = await run.done;
    expect(end.error).toBeNull();
    expect(end.state).toBe("succeeded");
    expect(end.summary?.subscriptions).toEqual([
      expect.objectContaining({
        pages: 2,
        deliveries: 135,
        failedJobs: 45,
        recoveredByRetry: ids.length - unlucky.length,
        enqueued: unlucky.length - 1,
        alreadyDone: 1,
      }),
    ]);
    expect(await db().platformDelivery.count({ where: { subscriptionId: "sub-replay" } })).toBe(135);
    const items = await db().queueItem.findMany({ where: { jobId: { in: ids } } });
    expect(items.map((i) => i.jobId).sort()).toEqual(unlucky.filter((id) => id !== doneAlready).sort());
    expect(items.every((i) => JSON.parse(i.payload).source === "replay")).toBe(true);

    await drain();
    expect(new Set(await outcomes(unlucky))).toEqual(new Set(["stored"]));
    // Run again: everything replayable now has an outcome, so nothing is queued twice.
    const again = await (await startReplay({ subscriptionId: "sub-replay" }, "test")).done;
    expect(again.summary).toMatchObject({ enqueued: 0, alreadyDone: unlucky.length });
    await getPlatformClient().deleteWebhook(hook.id);
    await receiver.close();
  });

  it("reports a missing delivery log (404) as a failed run with a clear message", async () => {
    await db().subscription.create({
      data: { id: "sub-gone", eventType: "batch_completed", url: "http://x/y", platformId: randomUUID() },
    });
    const end = await (await startReplay({ subscriptionId: "sub-gone" }, "test")).done;
    expect(end.state).toBe("failed");
    expect(end.error).toContain(NO_DELIVERY_LOG);
    await db().subscription.delete({ where: { id: "sub-gone" } });
  });
});

describe("polling fallback", () => {
  it("in webhook mode, schedules polls only for jobs that had no webhook for too long", async () => {
    const old = new Date(Date.now() - 3_600_000);
    await db().job.createMany({
      data: [
        { id: "silent-1", kind: "extract", createdAt: old },
        { id: "heard-1", kind: "extract", createdAt: old },
      ],
    });
    await db().receipt.create({ data: { jobId: "heard-1", eventType: "extract_completed" } });
    expect(await schedulePollsForSilentJobs()).toBe(1);
    const rows = await db().job.findMany({ where: { id: { in: ["silent-1", "heard-1"] } }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.id, r.nextPollAt !== null, r.pollDeadlineAt !== null])).toEqual([
      ["heard-1", false, false],
      ["silent-1", true, true],
    ]);
    await db().job.deleteMany({ where: { id: { in: ["silent-1", "heard-1"] } } });
  });

  it("polls every job to an outcome through a 429 storm, and marks a job past its deadline", async () => {
    setConfigForTests({
      ...t.config,
      TALLY_DELIVERY_MODE: "polling",
      TALLY_POLL_INITIAL_MS: 20,
      TALLY_POLL_MAX_MS: 200,
      TALLY_RECONCILE_INTERVAL_MINUTES: 0,
    });
    const kinds = ["extract", "batch", "crawl"] as const;
    const request = (i: number) => {
      const kind = kinds[i % 3];
      const url = `https://example.com/poll/${i}`;
      return kind === "batch"
        ? { kind, urls: [url, `${url}/b`] }
        : kind === "crawl"
          ? { kind, url, depth: 1, limit: 2 }
          : { kind, url };
    };
    // Jobs that run for a while, so the storm hits while they are still being polled.
    sim.sim.setConfig({ jobDurationMs: [300, 2500] });
    const ids = (await Promise.all(Array.from({ length: 18 }, (_, i) => submitJob(request(i))))).map((j) => j.jobId);
    expect(await db().job.count({ where: { id: { in: ids }, nextPollAt: { not: null } } })).toBe(18);
    await db().job.create({
      data: { id: "too-late", kind: "extract", nextPollAt: new Date(), pollDeadlineAt: new Date(Date.now() - 1000) },
    });

    // Count the 429s the platform really sent (the client absorbs most of them by pausing everyone):
    // every attempt's answer reaches the client's call observers.
    let status429 = 0;
    const stopCounting = addCallObserver((call) => {
      if (call.status === 429) status429++;
    });
    resetPlatformClients();
    const before = { ...pollerStats() };
    let pollsAtStorm = 0;
    const schedules = startSchedules(getConfig());
    const worker = createWorker({
      registry: workerRegistry,
      concurrency: 4,
      leaseMs: 10_000,
      idleMs: 20,
      owner: "test-poll",
    });
    worker.start();
    try {
      await waitFor("first polls", () => pollerStats().polls > before.polls + 3, 5000);
      sim.sim.injectFaults({ kind: "rate_limit", count: 12, retryAfter: "seconds" });
      pollsAtStorm = pollerStats().polls;
      await waitFor(
        "every polled job settled with an outcome",
        async () => (await outcomes(ids)).every((o) => o === "stored"),
        25_000,
      );
    } finally {
      schedules.stop();
      await worker.stop(1000);
      setConfigForTests(t.config);
      sim.sim.setConfig({ jobDurationMs: [20, 60] });
      stopCounting();
      resetPlatformClients();
    }
    expect(status429).toBe(12);
    // The loop kept polling through and after the storm.
    expect(pollerStats().polls).toBeGreaterThan(pollsAtStorm);
    const jobs = await db().job.findMany({ where: { id: { in: ids } } });
    expect(jobs.every((j) => j.pollCount >= 1 && j.nextPollAt === null)).toBe(true);
    expect(await db().receipt.count({ where: { jobId: { in: ids }, source: "poll" } })).toBe(18);
    const late = await db().job.findUniqueOrThrow({ where: { id: "too-late" } });
    expect(late.pollExpiredAt).not.toBeNull();
    expect(late.nextPollAt).toBeNull();
    expect(late.outcome).toBe("pending"); // left to reconciliation
  }, 40_000);
});
