// The process_job handler against the simulator over real HTTP, through the real queue and worker:
// completed jobs of every kind are stored once, cancelled and unsettled jobs are handled, and a worker
// that dies after storing (lease expired, item claimed again) does not store twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { claim, runItem, type ClaimedItem } from "@/lib/queue";
import { flushApiCalls } from "../platform/shared-client";
import { events, PAGE_SIZE, setupPipeline, type Pipeline } from "./jobs.test-util";
import { submitJob } from "./submit";

let p: Pipeline;
beforeAll(async () => {
  p = await setupPipeline();
});
afterAll(() => p?.close());

const results = (jobId: string) => db().result.findMany({ where: { jobId }, orderBy: { id: "asc" } });

describe("completed jobs", () => {
  it("extract: one result row, outcome stored, and a duplicate event changes nothing", async () => {
    const { jobId } = await submitJob({ kind: "extract", url: "https://example.com/a", formats: ["markdown", "html"] });
    const job = await p.settleAndProcess("extract", jobId);
    expect(job).toMatchObject({ outcome: "stored", platformStatus: "completed", origin: "submitted", resultCount: 1 });
    const rows = await results(jobId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ itemKey: "0", format: "both", status: "completed" });
    expect(rows[0].markdown).toBeTruthy();

    // The same job again (a duplicate or replayed webhook): no second row, no second outcome.
    expect(await p.enqueueJob(jobId, "extract")).toBe(true);
    await p.drain();
    expect(await results(jobId)).toHaveLength(1);
    expect(await events(jobId, "outcome")).toHaveLength(1);
    expect((await events(jobId, "note")).length).toBe(1);
    expect(await db().queueItem.count({ where: { jobId, state: "done" } })).toBe(2);
  });

  it("extract: the same rows, timeline and outbox whether or not a destination asks for job.stored", async () => {
    // On SQLite a stored extract is written by prepared statements unless the outbox must be written
    // (lib/jobs/store-extract-sqlite.ts); both ways must leave the same job, result and timeline.
    const store = async (url: string) => {
      const { jobId } = await submitJob({ kind: "extract", url, formats: ["markdown"] });
      const job = await p.settleAndProcess("extract", jobId);
      const [row] = await results(jobId);
      const timeline = (await events(jobId)).map((e) => ({ type: e.type, detail: JSON.parse(e.detail ?? "null") }));
      const outbox = await db().outboundDelivery.findMany({ where: { jobId } });
      return { jobId, job, row, timeline, outbox };
    };
    const plain = await store("https://example.com/plain");
    await db().destination.create({
      data: {
        id: "dest-stored",
        url: "https://receiver.example/hook",
        events: "job.stored",
        secret: "s",
        secretLast4: "0000",
      },
    });
    const forwarded = await store("https://example.com/forwarded");
    await db().destination.delete({ where: { id: "dest-stored" } });

    for (const r of [plain, forwarded]) {
      expect(r.job).toMatchObject({ outcome: "stored", platformStatus: "completed", resultCount: 1, attempts: 1 });
      expect(r.job.settledAt).toBeInstanceOf(Date);
      expect(r.job.outcomeAt!.getTime()).toBeGreaterThanOrEqual(r.job.settledAt!.getTime());
      expect(r.job.lastWebhookAt).toBeInstanceOf(Date);
      expect(r.job.tokensCharged).toBe(r.row.tokensCharged);
      expect(r.row).toMatchObject({ itemKey: "0", format: "markdown", status: "completed" });
      expect(JSON.parse(r.row.metadata ?? "{}")).toMatchObject({ url: expect.stringContaining("example.com") });
      expect(r.timeline.slice(-2)).toEqual([
        { type: "attempt", detail: { source: "webhook", queueAttempt: 1, status: "completed" } },
        { type: "outcome", detail: { outcome: "stored" } },
      ]);
    }
    expect(plain.outbox).toHaveLength(0);
    expect(forwarded.outbox).toMatchObject([
      { destinationId: "dest-stored", eventType: "job.stored", outcome: "stored" },
    ]);
  });

  it("batch: every result page, one row per input index", async () => {
    const urls = Array.from({ length: 3 * PAGE_SIZE + 1 }, (_, i) => `https://example.com/b/${i}`);
    const { jobId } = await submitJob({ kind: "batch", urls });
    const job = await p.settleAndProcess("batch", jobId);
    expect(job).toMatchObject({ outcome: "stored", resultCount: urls.length });
    const rows = await results(jobId);
    expect(rows.map((r) => Number(r.itemKey)).sort((a, b) => a - b)).toEqual(urls.map((_, i) => i));
    expect(rows.find((r) => r.itemKey === "4")?.url).toBe(urls[4]);
  });

  it("crawl: every result page, one row per page URL", async () => {
    const { jobId } = await submitJob({ kind: "crawl", url: "https://example.com/", depth: 3, limit: 50 });
    const job = await p.settleAndProcess("crawl", jobId);
    const doc = await p.client.getCrawl(jobId, { pageSize: 1 });
    expect(doc.total_pages).toBeGreaterThan(PAGE_SIZE);
    expect(job).toMatchObject({ outcome: "stored", resultCount: doc.total_pages });
    const rows = await results(jobId);
    expect(new Set(rows.map((r) => r.itemKey)).size).toBe(doc.total_pages);
    expect(rows[0].itemKey).toBe("https://example.com/");
  });

  it("a job Tally did not submit is recorded with the origin of its event", async () => {
    const accepted = await p.client.submitExtract({ url: "https://example.com/foreign" });
    const job = await p.settleAndProcess("extract", accepted.job_id);
    expect(job).toMatchObject({
      origin: "webhook",
      kind: "extract",
      request: null,
      outcome: "stored",
      url: "https://example.com/foreign",
    });
    // Inserted already stored on SQLite (lib/jobs/store-extract-sqlite.ts): the same row and timeline
    // as a job Tally knew before.
    const [row] = await results(accepted.job_id);
    expect(job).toMatchObject({ platformStatus: "completed", resultCount: 1, attempts: 1, itemsFailed: 0 });
    expect(job.tokensCharged).toBe(row.tokensCharged);
    expect(job.lastWebhookAt).toBeInstanceOf(Date);
    expect(job.platformCreatedAt).toBeInstanceOf(Date);
    expect(job.outcomeAt!.getTime()).toBeGreaterThanOrEqual(job.settledAt!.getTime());
    const timeline = (await events(accepted.job_id)).map((e) => ({
      type: e.type,
      detail: JSON.parse(e.detail ?? "null"),
    }));
    expect(timeline).toEqual([
      { type: "attempt", detail: { source: "webhook", queueAttempt: 1, status: "completed" } },
      { type: "outcome", detail: { outcome: "stored" } },
    ]);
  });

  /** Two live items for one settled job (no dedupe key), run side by side by two workers. */
  async function twoWorkersAtOnce(kind: "batch" | "extract", jobId: string) {
    await p.waitSettled(kind, jobId);
    await p.enqueueJob(jobId, kind, { dedupe: false });
    await p.enqueueJob(jobId, kind, { dedupe: false });
    await p.drain(2);
  }

  it("two workers on the same job at once store it once", async () => {
    const { jobId } = await submitJob({ kind: "batch", urls: ["https://example.com/r/1", "https://example.com/r/2"] });
    await twoWorkersAtOnce("batch", jobId);
    expect(await results(jobId)).toHaveLength(2);
    expect(await events(jobId, "outcome")).toHaveLength(1);
  });

  it("two workers on the same extract at once (one statement on PostgreSQL, one transaction on SQLite) store it once", async () => {
    for (let round = 0; round < 5; round++) {
      const { jobId } = await submitJob({ kind: "extract", url: `https://example.com/race/${round}` });
      await twoWorkersAtOnce("extract", jobId);
      expect(await results(jobId)).toHaveLength(1);
      expect(await events(jobId, "outcome")).toHaveLength(1);
      expect(await db().job.findUnique({ where: { id: jobId } })).toMatchObject({ outcome: "stored", resultCount: 1 });
    }
  });
});

describe("other states", () => {
  it("cancelled → outcome cancelled", async () => {
    await p.sim.control("/_sim/config", { jobDurationMs: [3000, 3000] });
    const { jobId } = await submitJob({ kind: "batch", urls: ["https://example.com/c/1"] });
    await p.sim.control("/_sim/config", { jobDurationMs: [20, 60] });
    await p.client.cancelBatch(jobId);
    const job = await p.settleAndProcess("batch", jobId);
    expect(job).toMatchObject({ outcome: "cancelled", platformStatus: "cancelled" });
  });

  it("not settled yet → rescheduled with a backoff, attempt not used up, never dropped", async () => {
    await p.sim.control("/_sim/config", { jobDurationMs: [2000, 2000] });
    const { jobId } = await submitJob({ kind: "extract", url: "https://example.com/slow" });
    await p.sim.control("/_sim/config", { jobDurationMs: [20, 60] });
    await p.enqueueJob(jobId, "extract");
    await p.drain();
    const item = await db().queueItem.findFirstOrThrow({ where: { jobId } });
    expect(item).toMatchObject({ state: "ready", attempts: 0, dedupeKey: `job:${jobId}` });
    expect(item.availableAt.getTime()).toBeGreaterThan(Date.now());
    const job = await db().job.findUniqueOrThrow({ where: { id: jobId } });
    expect(job.outcome).toBe("pending");
    expect(["queued", "processing"]).toContain(job.platformStatus);
    expect(await events(jobId, "attempt")).toHaveLength(1);
    // The rescheduled item falls due in about 2 s: the tests below claim whatever is due, so it goes.
    await db().queueItem.delete({ where: { id: item.id } });
  });

  const handle = (item: ClaimedItem) => {
    const kind = p.registry.get("process_job");
    if (!kind) throw new Error("process_job not registered");
    return kind.handle(kind.schema.parse(JSON.parse(item.payload)), { item, signal: new AbortController().signal });
  };

  it("a worker that dies after storing: the lease expires, the item runs again, the result is stored once", async () => {
    // A batch: stored page by page through the ORM and acked after, so the window exists on both stores.
    const { jobId } = await submitJob({ kind: "batch", urls: ["https://example.com/crash/1"] });
    await p.waitSettled("batch", jobId);
    await p.enqueueJob(jobId, "batch");
    const [leased] = await claim({ owner: "doomed", limit: 1, leaseMs: 1000 });
    // The handler runs to the end, then the process "dies": no ack.
    expect(await handle(leased)).toBeUndefined();
    expect(await claim({ owner: "next", limit: 1, leaseMs: 1000 })).toHaveLength(0);
    const [again] = await claim({ owner: "next", limit: 1, leaseMs: 10_000, now: new Date(Date.now() + 1500) });
    expect(again.id).toBe(leased.id);
    expect(await runItem(p.registry, again, { timeoutMs: 5000 })).toBe("acked");
    expect(await results(jobId)).toHaveLength(1);
    expect(await events(jobId, "outcome")).toHaveLength(1);
    expect(await db().queueItem.findUniqueOrThrow({ where: { id: leased.id } })).toMatchObject({
      state: "done",
      dedupeKey: null,
    });
  });

  it("an extract is acked in the transaction that stores it (one statement on PostgreSQL): no window between stored and done", async () => {
    const { jobId } = await submitJob({ kind: "extract", url: "https://example.com/acked-within" });
    await p.waitSettled("extract", jobId);
    await p.enqueueJob(jobId, "extract");
    const [leased] = await claim({ owner: "w", limit: 1, leaseMs: 10_000 });
    const answer = await handle(leased);
    const item = await db().queueItem.findUniqueOrThrow({ where: { id: leased.id } });
    expect((await db().job.findUniqueOrThrow({ where: { id: jobId } })).outcome).toBe("stored");
    expect(answer).toEqual({ ackedWithin: true });
    expect(item).toMatchObject({ state: "done", dedupeKey: null, leaseOwner: null });
    // A second event for the stored job: nothing to store, so the worker acks it after, as before.
    await p.enqueueJob(jobId, "extract");
    const [duplicate] = await claim({ owner: "w", limit: 1, leaseMs: 10_000 });
    expect(await runItem(p.registry, duplicate, { timeoutMs: 5000 })).toBe("acked");
    expect(await db().queueItem.findUniqueOrThrow({ where: { id: duplicate.id } })).toMatchObject({ state: "done" });
  });

  it("an extract whose lease was taken over is stored once and leaves the new holder's lease alone", async () => {
    const { jobId } = await submitJob({ kind: "extract", url: "https://example.com/taken-over" });
    await p.waitSettled("extract", jobId);
    await p.enqueueJob(jobId, "extract");
    const [slow] = await claim({ owner: "slow", limit: 1, leaseMs: 1000 });
    const [next] = await claim({ owner: "next", limit: 1, leaseMs: 60_000, now: new Date(Date.now() + 1500) });
    expect(next.id).toBe(slow.id);
    const answer = await handle(slow);
    expect(answer).toEqual({ ackedWithin: false });
    expect(await results(jobId)).toHaveLength(1);
    expect(await db().queueItem.findUniqueOrThrow({ where: { id: slow.id } })).toMatchObject({
      state: "leased",
      leaseOwner: next.leaseOwner,
    });
    expect(await runItem(p.registry, next, { timeoutMs: 5000 })).toBe("acked");
    expect(await events(jobId, "outcome")).toHaveLength(1);
  });
});

describe("bookkeeping", () => {
  it("a job the platform does not know is dead-lettered after a few tries, not the whole budget", async () => {
    await db().queueItem.deleteMany({ where: { state: { in: ["ready", "leased"] } } }); // leftovers of the tests above
    await p.enqueueJob("00000000-0000-4000-8000-000000000000", "extract");
    let now = new Date();
    for (let i = 0; i < 3; i++) {
      const [item] = await claim({ owner: "w", limit: 1, leaseMs: 5000, now });
      expect(await runItem(p.registry, item, { timeoutMs: 5000 })).toBe(i < 2 ? "retried" : "dead");
      now = new Date(Date.now() + 10 * 60_000);
    }
    const dl = await db().deadLetter.findFirstOrThrow({ where: { jobId: "00000000-0000-4000-8000-000000000000" } });
    expect(dl.errorCode).toBe("PLATFORM_NOT_FOUND");
  });

  it("counts platform calls per minute and endpoint, written in batches", async () => {
    await flushApiCalls();
    const rows = await db().apiCallMinute.findMany();
    const byEndpoint = new Map<string, number>();
    for (const r of rows) byEndpoint.set(r.endpoint, (byEndpoint.get(r.endpoint) ?? 0) + r.count);
    expect(byEndpoint.get("POST /v1/extract")).toBeGreaterThan(0);
    expect(byEndpoint.get("GET /v1/batch/{job_id}")).toBeGreaterThan(3);
    expect(rows.every((r) => r.minute.getSeconds() === 0 && r.minute.getMilliseconds() === 0)).toBe(true);
  });
});
