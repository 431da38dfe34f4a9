// The six alert rules beyond dead_letters and unauthorized_spike (alerts.test.ts), each driven by the
// real thing it watches where it can be: reconciliation runs and platform calls against the simulator
// over real HTTP, jobs submitted through Tally, the real worker; on a real database (SQLite, and
// PostgreSQL through vitest.postgres.config.mts). The clock is passed to the evaluation, so the
// "for N minutes" thresholds are checked without waiting.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { processJobItem } from "@/lib/jobs/process-job";
import { submitJob } from "@/lib/jobs/submit";
import { enqueue } from "@/lib/queue";
import { API_KEY, startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import pg from "pg";
import { createTestDb, type TestDb } from "@/test/db";
import { TEST_STORE } from "@/test/store";
import { scrapeMetrics } from "../metrics/scrape";
import { drain } from "@/test/safety-nets-harness";
import { flushApiCalls, getPlatformClient, resetPlatformClients } from "../platform/shared-client";
import { startReconcile } from "../safety-nets/reconcile";
import { registerSubscriptions } from "../subscriptions/register";
import type { RuleName } from "./contracts";
import { evaluateAlerts } from "./evaluate";

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;

beforeAll(async () => {
  sim = await startSim();
  resetPlatformClients();
  t = await createTestDb({
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_PUBLIC_URL: "http://tally.test:3000",
    TALLY_API_RPS: "1000",
  });
});
afterAll(async () => {
  await flushApiCalls().catch(() => undefined);
  await sim?.close();
  await t?.cleanup();
});
beforeEach(async () => {
  await faults(0);
  await flushApiCalls(); // the earlier tests' calls, before their table is emptied
  // A client of each test's own: one that made the platform fail may have counted it as down.
  resetPlatformClients();
  for (const table of [
    "alertNotification",
    "alertEvent",
    "alertState",
    "apiCallMinute",
    "operationRun",
    "platformBudget", // an outage an earlier test's client recorded
  ] as const) {
    await (db()[table] as unknown as { deleteMany(): Promise<unknown> }).deleteMany();
  }
});

const minutes = (base: Date, m: number) => new Date(base.getTime() + m * 60_000);
/** The platform answers this share of API calls with a 500, 502 or 503. */
const faults = async (serverErrorRate: number) =>
  expect((await sim.control("/_sim/config", { serverErrorRate })).status).toBe(200);

async function rule(name: RuleName, now: Date) {
  const transition = (await evaluateAlerts({ now })).find((x) => x.rule === name)!;
  const state = await db().alertState.findUniqueOrThrow({ where: { rule: name } });
  return {
    ...transition,
    summary: state.summary ?? "",
    details: JSON.parse(state.details ?? "{}") as Record<string, unknown>,
  };
}

/** The platform has finished the job (the simulator's jobs take tens of milliseconds). */
const settledOnPlatform = (jobId: string) =>
  waitFor("job settled on the platform", () =>
    ["completed", "failed"].includes(sim.sim.state().perJob[jobId]?.status ?? ""),
  );

async function reconcile() {
  return (await startReconcile({ olderThanSeconds: 0, scope: "full" }, "test")).done;
}

describe("subscription_drift", () => {
  it("fires when the latest reconciliation found a subscription changed on the platform, and resolves once registration repaired it", async () => {
    const now = new Date();
    await registerSubscriptions("test");
    expect((await reconcile()).error).toBeNull();
    expect(await rule("subscription_drift", now)).toMatchObject({
      to: "ok",
      event: null,
      summary: "subscriptions match the platform",
    });

    const sub = await db().subscription.findFirstOrThrow({ where: { eventType: "batch_completed" } });
    await getPlatformClient().updateWebhook(String(sub.platformId), { url: "https://elsewhere.example/hook" });
    expect((await reconcile()).error).toBeNull();
    const fired = await rule("subscription_drift", minutes(now, 1));
    expect(fired).toMatchObject({ from: "ok", to: "firing", event: "firing" });
    expect(fired.summary).toBe("1 subscription difference (batch_completed: url_mismatch)");
    expect(fired.details.drift).toEqual([
      expect.objectContaining({ eventType: "batch_completed", problem: "url_mismatch" }),
    ]);

    await registerSubscriptions("test");
    expect((await reconcile()).error).toBeNull();
    expect(await rule("subscription_drift", minutes(now, 2))).toMatchObject({
      from: "firing",
      to: "ok",
      event: "resolved",
    });
  });
});

describe("safety_net_failed", () => {
  it("fires when the latest run of a safety net failed, names it, and resolves when a later run of the same kind succeeds", async () => {
    const now = new Date();
    await faults(1);
    const failed = await reconcile();
    expect(failed.state).toBe("failed");
    const fired = await rule("safety_net_failed", now);
    expect(fired).toMatchObject({ from: "ok", to: "firing", event: "firing" });
    expect(fired.summary).toMatch(new RegExp(`^reconcile run ${failed.id} failed: listing extract jobs failed`));
    expect(fired.details.failed).toEqual([expect.objectContaining({ runId: failed.id, kind: "reconcile" })]);

    await faults(0);
    expect((await reconcile()).state).toBe("succeeded");
    expect(await rule("safety_net_failed", minutes(now, 1))).toMatchObject({
      from: "firing",
      to: "ok",
      event: "resolved",
    });
  });
});

describe("platform_errors", () => {
  /** Every process's calls as the rule reads them: the shared client's per-minute counts, flushed. */
  async function counted() {
    await flushApiCalls();
    const rows = await db().apiCallMinute.groupBy({ by: ["answer"], _sum: { count: true } });
    return Object.fromEntries(rows.map((r) => [r.answer, r._sum.count ?? 0]));
  }

  // Submits are never retried, so each refused one is exactly one failed call.
  const refusedSubmit = (client: ReturnType<typeof getPlatformClient>, i: number) =>
    expect(client.submitExtract({ url: `https://example.com/refused/${i}` })).rejects.toThrow();

  it("fires when 20% or more of the platform calls of the last 5 minutes answered 5xx (all processes' counts), not below; resolves when the window moves on", async () => {
    const client = getPlatformClient();
    for (let i = 0; i < 12; i++) await client.listWebhooks();
    expect(await counted()).toEqual({ "2xx": 12 });
    const now = new Date();
    expect(await rule("platform_errors", now)).toMatchObject({
      to: "ok",
      event: null,
      summary: "0.0% of 12 platform calls failed (5xx, timeout or no connection) in 5 min",
    });

    await faults(1);
    for (let i = 0; i < 2; i++) await refusedSubmit(client, i);
    expect(await counted()).toEqual({ "2xx": 12, "5xx": 2 });
    expect(await rule("platform_errors", minutes(now, 1))).toMatchObject({
      to: "ok",
      event: null,
      summary: "14.3% of 14 platform calls failed (5xx, timeout or no connection) in 5 min",
    });

    await refusedSubmit(client, 2);
    await flushApiCalls();
    const fired = await rule("platform_errors", minutes(now, 1));
    expect(fired).toMatchObject({
      from: "ok",
      to: "firing",
      event: "firing",
      summary: "20.0% of 15 platform calls failed (5xx, timeout or no connection) in 5 min",
    });
    expect(fired.details).toEqual({
      total: 15,
      errors: 3,
      percent: 20,
      byAnswer: { "2xx": 12, "5xx": 3 },
      windowMinutes: 5,
      downSince: null,
      failedInARow: 0,
    });

    // A GET the platform fails is retried, every attempt a failed call, until the platform counts as
    // down (5 failures in a row, the 3 submits included): then the client stops sending.
    await expect(client.listWebhooks()).rejects.toThrow();
    expect((await counted())["5xx"]).toBe(3 + 2);

    await faults(0);
    expect(await rule("platform_errors", minutes(now, 4))).toMatchObject({ to: "firing", event: null });
    expect(await rule("platform_errors", minutes(now, 7))).toMatchObject({
      from: "firing",
      to: "ok",
      event: "resolved",
      summary: "0.0% of 0 platform calls failed (5xx, timeout or no connection) in 5 min",
    });
  });

  it("does not fire on 4xx answers, nor on fewer than 5 calls even if all of them failed", async () => {
    const client = getPlatformClient();
    for (let i = 0; i < 10; i++) await expect(client.getExtractJob(`missing-${i}`)).rejects.toThrow();
    expect(await counted()).toEqual({ "4xx": 10 });
    expect(await rule("platform_errors", new Date())).toMatchObject({
      to: "ok",
      event: null,
      summary: "0.0% of 10 platform calls failed (5xx, timeout or no connection) in 5 min",
    });

    await db().apiCallMinute.deleteMany();
    await faults(1);
    for (let i = 0; i < 4; i++) await refusedSubmit(client, i);
    expect(await counted()).toEqual({ "5xx": 4 });
    expect(await rule("platform_errors", new Date())).toMatchObject({
      to: "ok",
      event: null,
      summary: "100.0% of 4 platform calls failed (5xx, timeout or no connection) in 5 min",
    });
    await refusedSubmit(client, 4);
    await flushApiCalls();
    expect(await rule("platform_errors", new Date())).toMatchObject({ to: "firing", event: "firing" });
  });

  /** Evaluates now until the rule reaches `to` (an outage is written in the background) or 5 s pass. */
  async function evaluateUntil(to: "ok" | "firing") {
    const end = Date.now() + 5000;
    for (;;) {
      const r = await rule("platform_errors", new Date());
      if (r.to === to || Date.now() > end) return r;
      await new Promise((done) => setTimeout(done, 20));
    }
  }

  it("fires as soon as the platform counts as down, though the successes before the outage keep the share low; resolves at the first answer", async () => {
    const client = getPlatformClient();
    for (let i = 0; i < 40; i++) await client.listWebhooks();
    await faults(1);
    // Five refused submits in a row: the client counts the platform as down and stops sending.
    for (let i = 0; i < 5; i++) await refusedSubmit(client, i);
    await expect(client.listWebhooks()).rejects.toMatchObject({ code: "PLATFORM_DOWN" });
    expect(await counted()).toEqual({ "2xx": 40, "5xx": 5 });
    // The outage reaches the database a moment after the failure (written in the background).
    const fired = await evaluateUntil("firing");
    expect(fired).toMatchObject({ from: "ok", event: "firing" });
    expect(fired.summary).toMatch(
      /^the platform is down: 5 calls in a row failed, the first \d+ s ago; 11\.1% of 45 platform calls failed/,
    );
    expect(fired.details).toMatchObject({ percent: 11.1, failedInARow: 5 });

    // An outage nobody has probed within the window no longer counts (a process that died while down).
    expect(await rule("platform_errors", minutes(new Date(), 6))).toMatchObject({ to: "ok", event: "resolved" });
    expect(await rule("platform_errors", new Date())).toMatchObject({ to: "firing", event: "firing" });

    // The platform answers again: the probe after the backoff (1 s) succeeds and ends the outage.
    await faults(0);
    await waitFor(
      "a probe answered",
      () =>
        client.listWebhooks().then(
          () => true,
          () => false,
        ),
      10_000,
    );
    const resolved = await evaluateUntil("ok");
    expect(resolved).toMatchObject({ from: "firing", event: "resolved" });
    expect(resolved.summary).toMatch(/^\d+\.\d% of \d+ platform calls failed/);
  });
});

describe("stale_pending", () => {
  it("fires for a job submitted through Tally still without an outcome after TALLY_PENDING_ALERT_MINUTES (60), names it, and resolves once it is stored", async () => {
    const { jobId } = await submitJob({ kind: "extract", url: "https://example.com/stale" });
    const now = new Date();
    expect(await rule("stale_pending", minutes(now, 59))).toMatchObject({
      to: "ok",
      event: null,
      summary: "no stale pending jobs",
    });
    const fired = await rule("stale_pending", minutes(now, 61));
    expect(fired).toMatchObject({ from: "ok", to: "firing", event: "firing" });
    expect(fired.summary).toBe(`1 job pending for over 60 min (oldest ${jobId})`);

    // The safety net finds it settled on the platform and the worker stores it.
    await settledOnPlatform(jobId);
    expect((await reconcile()).error).toBeNull();
    await drain();
    expect((await db().job.findUniqueOrThrow({ where: { id: jobId } })).outcome).not.toBe("pending");
    expect(await rule("stale_pending", minutes(now, 62))).toMatchObject({
      from: "firing",
      to: "ok",
      event: "resolved",
    });
  });
});

describe("queue_stalled", () => {
  it("fires when the oldest due queue item has waited TALLY_ALERT_QUEUE_STALLED_MINUTES (10), not for one due later, and resolves once the worker handled it", async () => {
    const { jobId } = await submitJob({ kind: "extract", url: "https://example.com/stalled" });
    await settledOnPlatform(jobId);
    expect(await enqueue(db(), processJobItem({ jobId, kind: "extract", source: "poll" }))).toBe(true);
    const now = new Date();
    // Scheduled for later (a poll's next look): not due, so not waiting.
    expect(
      await enqueue(
        db(),
        processJobItem({ jobId: "due-later", kind: "extract", source: "poll" }, { availableAt: minutes(now, 30) }),
      ),
    ).toBe(true);
    expect(await rule("queue_stalled", minutes(now, 9))).toMatchObject({ to: "ok", event: null });
    const fired = await rule("queue_stalled", minutes(now, 11));
    expect(fired).toMatchObject({ from: "ok", to: "firing", event: "firing" });
    expect(fired.summary).toMatch(/^oldest due queue item waited 11\.\d min \(1 item due\)$/);
    expect(fired.details).toMatchObject({ due: 1, oldestKind: "process_job" });

    await drain();
    expect((await db().queueItem.findMany({ where: { state: "ready" } })).map((q) => q.jobId)).toEqual(["due-later"]);
    expect(await rule("queue_stalled", minutes(now, 12))).toMatchObject({
      from: "firing",
      to: "ok",
      event: "resolved",
    });
  });
});

describe("queue_bloat", () => {
  it("on PostgreSQL, fires for a transaction left open TALLY_ALERT_OLD_TRANSACTION_MINUTES (15) while the queue table's dead rows pile up, and shows both in /api/metrics; on SQLite never", async () => {
    const now = new Date();
    if (TEST_STORE === "sqlite") {
      const r = await rule("queue_bloat", minutes(now, 60));
      expect(r).toMatchObject({ to: "ok", event: null, summary: "not applicable on SQLite" });
      const text = (await scrapeMetrics(now)).body;
      expect(text).toMatch(/^tally_db_oldest_transaction_age_seconds 0$/m);
      expect(text).toMatch(/^tally_queue_dead_rows 0$/m);
      return;
    }
    // A forgotten session: a transaction open in Tally's database, holding back vacuum.
    const idle = new pg.Client({ connectionString: t.url, application_name: "forgotten-psql" });
    await idle.connect();
    const churn = new pg.Client({ connectionString: t.url });
    await churn.connect();
    try {
      await idle.query("BEGIN");
      await idle.query("SELECT txid_current()");
      const openedAt = new Date();
      // Queue churn while it is open: 5,000 items in and out, so 5,000 dead rows vacuum may not remove.
      await churn.query(
        `INSERT INTO "QueueItem" (kind, payload, "updatedAt") SELECT 'bloat', '{}', now() FROM generate_series(1, 5000)`,
      );
      await churn.query(`DELETE FROM "QueueItem" WHERE kind = 'bloat'`);
      await churn.query('VACUUM "QueueItem"');
      // Statistics reach other sessions when a session flushes them; make that the next statement's end.
      await churn.query("SELECT pg_stat_force_next_flush()");
      await churn.query("SELECT 1");

      expect(await rule("queue_bloat", minutes(openedAt, 14))).toMatchObject({ to: "ok", event: null });
      const fired = await rule("queue_bloat", minutes(openedAt, 16));
      expect(fired).toMatchObject({ from: "ok", to: "firing", event: "firing" });
      expect(fired.summary).toMatch(
        /^oldest open transaction 16\.\d min \(pid \d+, idle in transaction\); [\d,]+ dead rows in the queue table$/,
      );
      expect(fired.details).toMatchObject({ oldestTransactionApplication: "forgotten-psql" });
      expect(Number(fired.details.queueDeadRows)).toBeGreaterThanOrEqual(5000);

      const text = (await scrapeMetrics(minutes(openedAt, 16))).body;
      const age = Number(/^tally_db_oldest_transaction_age_seconds (\S+)$/m.exec(text)?.[1]);
      expect(age).toBeGreaterThanOrEqual(16 * 60);
      expect(Number(/^tally_queue_dead_rows (\S+)$/m.exec(text)?.[1])).toBeGreaterThanOrEqual(5000);

      // The session ends, vacuum can do its work: resolved.
      await idle.query("ROLLBACK");
      await churn.query('VACUUM "QueueItem"');
      await churn.query("SELECT pg_stat_force_next_flush()");
      await churn.query("SELECT 1");
      // Checked at the real time now: a clock moved ahead would age Tally's own short transactions too.
      expect(await rule("queue_bloat", new Date())).toMatchObject({
        from: "firing",
        to: "ok",
        event: "resolved",
      });
    } finally {
      await idle.end();
      await churn.end();
    }
  });
});
