// Item failures outside runs (issue 24, point 7), against the simulator over real HTTP through the real
// queue and worker: a stored batch or crawl with failed items says how many on its detail (the job
// page's data), its results filter to the failed ones with their reasons, and the overview's ledger
// counts items, so a stored job with failed items inside never reads as 100 % content. A clean batch
// shows no failed items.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { computeOverview } from "@/lib/overview/overview";
import { itemCounts } from "@/lib/overview/ledger";
import { listJobResults } from "@/lib/results/job-results";
import { jobResultsQuerySchema } from "@/lib/results/contracts";
import { getJobDetail } from "./detail";
import { getJob } from "./query";
import { setupPipeline, type Pipeline } from "./jobs.test-util";
import { submitJob } from "./submit";

let p: Pipeline;
beforeAll(async () => {
  p = await setupPipeline();
});
afterAll(() => p?.close());

const failedQuery = jobResultsQuerySchema.parse({ status: "failed", limit: "1000" });

// The `item-fail-NNN` marker makes the simulator fail that URL's item with the target status NNN.
const MIXED = [
  "https://shop.example/a",
  "https://shop.example/item-fail-404/gone",
  "https://shop.example/b",
  "https://shop.example/item-fail-503/busy",
  "https://shop.example/c",
  "https://shop.example/item-fail-403/blocked",
  "https://shop.example/d",
];

let mixedId = "";
let cleanId = "";

describe("a stored batch job", () => {
  it("with failed items: N of M on the job and its detail, the failed items with their reasons", async () => {
    const { jobId } = await submitJob({ kind: "batch", urls: MIXED });
    mixedId = jobId;
    const job = await p.settleAndProcess("batch", jobId);
    expect(job).toMatchObject({ outcome: "stored", resultCount: 7, itemsFailed: 3 });

    // GET /api/jobs/{id} answers getJob's view.
    expect((await getJob(jobId)).items).toEqual({ total: 7, stored: 4, failed: 3 });

    const detail = await getJobDetail(jobId);
    expect(detail.job.items).toEqual({ total: 7, stored: 4, failed: 3 });
    expect(detail.failedItems.map((f) => f.url).sort()).toEqual(MIXED.filter((u) => u.includes("item-fail")).sort());
    for (const f of detail.failedItems) {
      expect(f.errorCode, f.url ?? "").toBeTruthy();
      expect(f.errorMessage, f.url ?? "").toBeTruthy();
    }

    const failed = await listJobResults(jobId, failedQuery);
    expect(failed.items).toHaveLength(3);
    expect(failed.items.every((r) => r.status === "failed")).toBe(true);
    const completed = await listJobResults(jobId, jobResultsQuerySchema.parse({ status: "completed" }));
    expect(completed.items.map((r) => r.url).sort()).toEqual(MIXED.filter((u) => !u.includes("item-fail")).sort());
    // Without the filter: every item, as before.
    expect((await listJobResults(jobId, jobResultsQuerySchema.parse({}))).items).toHaveLength(7);
  });

  it("without failed items: 0 failed, no failed items listed", async () => {
    const urls = Array.from({ length: 5 }, (_, i) => `https://shop.example/clean/${i}`);
    const { jobId } = await submitJob({ kind: "batch", urls });
    cleanId = jobId;
    const job = await p.settleAndProcess("batch", jobId);
    expect(job).toMatchObject({ outcome: "stored", resultCount: 5, itemsFailed: 0 });
    const detail = await getJobDetail(jobId);
    expect(detail.job.items).toEqual({ total: 5, stored: 5, failed: 0 });
    expect(detail.failedItems).toEqual([]);
    expect((await listJobResults(jobId, failedQuery)).items).toEqual([]);
  });

  it("rejects an unknown item status in the results filter", () => {
    expect(jobResultsQuerySchema.safeParse({ status: "broken" }).success).toBe(false);
  });

  it("a pending job has no items yet", async () => {
    const { jobId } = await submitJob({ kind: "batch", urls: ["https://shop.example/item-fail-404/later"] });
    expect((await getJobDetail(jobId)).job.items).toEqual({ total: 0, stored: 0, failed: 0 });
    await p.settleAndProcess("batch", jobId);
    expect((await getJobDetail(jobId)).job.items).toEqual({ total: 1, stored: 0, failed: 1 });
  });
});

describe("a stored crawl job", () => {
  it("counts the pages that failed", async () => {
    await p.sim.control("/_sim/config", { itemFailureRate: 0.3 });
    try {
      const { jobId } = await submitJob({ kind: "crawl", url: "https://docs.example/", depth: 2, limit: 30 });
      const job = await p.settleAndProcess("crawl", jobId);
      const failedRows = await db().result.count({ where: { jobId, status: "failed" } });
      expect(failedRows).toBeGreaterThan(0);
      expect(job).toMatchObject({ outcome: "stored", itemsFailed: failedRows });
      const detail = await getJobDetail(jobId);
      expect(detail.job.items).toEqual({
        total: job.resultCount,
        stored: job.resultCount - failedRows,
        failed: failedRows,
      });
      expect(detail.failedItems).toHaveLength(Math.min(failedRows, 50));
    } finally {
      await p.sim.control("/_sim/config", { itemFailureRate: 0 });
    }
  });
});

describe("the overview's ledger", () => {
  it("counts items in stored jobs, failed ones apart, the same whether summed live or from the watermark", async () => {
    expect(mixedId && cleanId).toBeTruthy();
    const rows = await db().result.groupBy({ by: ["status"], _count: { _all: true } });
    const of = (s: string) => rows.find((r) => r.status === s)?._count._all ?? 0;
    const total = rows.reduce((a, r) => a + r._count._all, 0);
    const failed = of("failed");
    expect(failed).toBeGreaterThanOrEqual(4);
    const jobsWithFailed = await db().job.count({ where: { outcome: "stored", itemsFailed: { gt: 0 } } });
    expect(jobsWithFailed).toBe(3); // the mixed batch, the one-URL batch and the crawl
    const expected = { total, stored: total - failed, failed, jobsWithFailed };

    // Every job settled in the last minute: summed live above the watermark.
    const now = new Date();
    expect((await computeOverview(now)).ledger.items).toEqual(expected);
    // A clock ten minutes on: the cached watermark is stale, every job now falls below the new one
    // and is summed once into the kept base; the figures do not move.
    const later = new Date(now.getTime() + 11 * 60_000);
    expect(await itemCounts(later)).toEqual(expected);
    expect(await itemCounts(new Date(later.getTime() + 1000))).toEqual(expected);

    // A clock back at the real time (before the kept watermark): the base is summed again, and a job
    // stored since is counted.
    const { jobId } = await submitJob({ kind: "batch", urls: ["https://shop.example/item-fail-404/x"] });
    await p.settleAndProcess("batch", jobId);
    expect(await itemCounts(new Date())).toEqual({
      total: total + 1,
      stored: total - failed,
      failed: failed + 1,
      jobsWithFailed: jobsWithFailed + 1,
    });
  });
});
