// The overview's figures against rows seeded through Prisma: the ledger adds up, pending jobs land in
// the right age bucket, deliveries and 401s count only the last hour, and subscription alerts fire.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeOverview } from "@/lib/overview/overview";
import { db } from "@/lib/db";
import { createTestDb, type TestDb } from "./db";

let t: TestDb;
const now = new Date("2026-11-29T12:00:00.000Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const MIN = 60_000;
const HOUR = 60 * MIN;

let n = 0;
const job = (outcome: string, createdAt: Date, platformStatus = "completed") => ({
  id: `job-${++n}`,
  kind: "extract",
  outcome,
  platformStatus,
  createdAt,
});

beforeAll(async () => {
  t = await createTestDb({ TALLY_PUBLIC_URL: "https://tally.example" });
  await db().job.createMany({
    data: [
      ...Array.from({ length: 7 }, () => job("stored", ago(2 * HOUR))),
      ...Array.from({ length: 2 }, () => job("resubmitted", ago(3 * HOUR), "failed")),
      job("dead_lettered", ago(HOUR), "failed"),
      job("cancelled", ago(HOUR), "cancelled"),
      // pending, one age bucket each, with the boundaries on their "older" side
      job("pending", ago(30_000), "queued"),
      job("pending", ago(5 * MIN - 1), "processing"),
      job("pending", ago(5 * MIN), "processing"),
      job("pending", ago(59 * MIN), "processing"),
      job("pending", ago(2 * HOUR), "unknown"),
      job("pending", ago(30 * HOUR), "unknown"),
      job("pending", ago(72 * HOUR), "unknown"),
    ],
  });
  const delivery = (status: number, receivedAt: Date) => ({ status, receivedAt, latencyMs: 3, bodyBytes: 100 });
  await db().inboundDelivery.createMany({
    data: [
      ...Array.from({ length: 6 }, () => delivery(200, ago(10 * MIN))),
      ...Array.from({ length: 3 }, () => delivery(401, ago(20 * MIN))),
      delivery(400, ago(30 * MIN)),
      // older than an hour: not counted
      ...Array.from({ length: 5 }, () => delivery(401, ago(2 * HOUR))),
      delivery(200, ago(HOUR + 1000)),
    ],
  });
  await db().deadLetter.createMany({
    data: [
      { jobId: "job-10", kind: "process_job", errorMessage: "x", state: "open" },
      { jobId: "job-10", kind: "process_job", errorMessage: "y", state: "discarded" },
      { kind: "other", errorMessage: "z", state: "open" },
    ],
  });
  await db().subscription.createMany({
    data: [
      { id: "s1", eventType: "extract_completed", url: "https://tally.example/webhooks/geonode/s1", isActive: true },
      { id: "s2", eventType: "batch_completed", url: "https://tally.example/webhooks/geonode/s2", isActive: false },
      { id: "s3", eventType: "crawl_completed", url: "https://elsewhere.example/hook", isActive: true },
    ],
  });
  await db().operationRun.create({
    data: {
      id: "run-1",
      kind: "reconcile",
      state: "succeeded",
      startedBy: "scheduler",
      startedAt: ago(5 * MIN),
      finishedAt: ago(4 * MIN),
      summary: JSON.stringify({ listed: 40, missing: 2, nested: { no: 1 } }),
    },
  });
});
afterAll(async () => {
  await t?.cleanup();
});

describe("overview", () => {
  it("the ledger adds up: jobs known = stored + resubmitted + dead-lettered + cancelled + pending", async () => {
    const o = await computeOverview(now);
    expect(o.ledger.byOutcome).toEqual({ stored: 7, resubmitted: 2, dead_lettered: 1, cancelled: 1, pending: 7 });
    expect(o.ledger.known).toBe(18);
    expect(o.ledger.known).toBe(Object.values(o.ledger.byOutcome).reduce((a, b) => a + b, 0) + o.ledger.unaccounted);
    expect(o.ledger.unaccounted).toBe(0);
  });

  it("splits pending jobs by age, and the buckets add up to pending", async () => {
    const o = await computeOverview(now);
    expect(Object.fromEntries(o.ledger.pendingByAge.map((b) => [b.key, b.count]))).toEqual({
      under5m: 2,
      "5to60m": 2,
      "1to24h": 1,
      over24h: 2,
    });
    expect(o.ledger.pendingByAge.reduce((s, b) => s + b.count, 0)).toBe(o.ledger.byOutcome.pending);
  });

  it("shows an outcome outside the five as unaccounted rather than hiding it", async () => {
    await db().job.create({ data: job("bogus", ago(MIN)) });
    const o = await computeOverview(now);
    expect(o.ledger.unaccounted).toBe(1);
    expect(o.ledger.known).toBe(19);
    await db().job.delete({ where: { id: `job-${n}` } });
  });

  it("counts deliveries and 401s of the last hour only", async () => {
    const o = await computeOverview(now);
    expect(o.deliveries).toMatchObject({ total: 10, ok: 6, unauthorized: 3 });
    expect(o.deliveries.successRate).toBeCloseTo(0.6);
  });

  it("groups jobs by platform status, open dead letters, and the last reconciliation's figures", async () => {
    const o = await computeOverview(now);
    expect(Object.fromEntries(o.byPlatformStatus.map((s) => [s.status, s.count]))).toEqual({
      completed: 7,
      failed: 3,
      cancelled: 1,
      queued: 1,
      processing: 3,
      unknown: 3,
    });
    expect(o.deadLettersOpen).toBe(2);
    expect(o.lastReconciliation).toMatchObject({ id: "run-1", state: "succeeded" });
    expect(o.lastReconciliation?.figures).toEqual([
      { name: "listed", value: "40" },
      { name: "missing", value: "2" },
    ]);
  });

  it("alerts on a subscription that is missing, inactive or pointed elsewhere", async () => {
    const o = await computeOverview(now);
    expect(o.subscriptionAlerts.map((a) => [a.eventType, a.problem])).toEqual([
      ["batch_completed", "inactive"],
      ["crawl_completed", "elsewhere"],
    ]);
    await db().subscription.delete({ where: { id: "s1" } });
    const after = await computeOverview(now);
    expect(after.subscriptionAlerts.find((a) => a.eventType === "extract_completed")?.problem).toBe("missing");
  });
});
