// Runs end to end with the real simulator over HTTP, the real queue and worker, on SQLite (and on
// PostgreSQL through vitest.postgres.config.mts): chunking at the platform's 1,000, counts that add
// up at every read while the run moves, transient item failures retried up to the cap and permanent
// ones final at once with their reasons, a failed batch job's URLs back to pending, cancel and
// retry-failed, the export's one row per URL, run.completed forwarded once, bad lists refused with
// line numbers, and the unsafe moment (a 502 after the platform wrote the batch) adopted, not doubled.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { processJobItem } from "@/lib/jobs/process-job";
import { createDestination } from "@/lib/outbound/destinations";
import { forwardEventKind } from "@/lib/outbound/handler";
import { flushApiCalls, resetPlatformClients } from "@/lib/platform/shared-client";
import { isTerminal } from "@/lib/platform";
import { createRegistry, enqueue } from "@/lib/queue";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { processJobKind, runSubmitKind } from "@/lib/worker/registry";
import { createWorker } from "@/lib/worker/worker";
import { createTestDb, type TestDb } from "@/test/db";
import { startSink, type Sink } from "@/lib/outbound/test-sink";
import { exportRunCsv, exportRunJsonl } from "@/lib/results/run-export";
import {
  cancelRun,
  createRun,
  getRun,
  listRunUrls,
  parseText,
  parseValues,
  retryFailed,
  RUN_SUBMIT,
  type RunView,
} from "./index";

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;
let sink: Sink;
const registry = createRegistry([processJobKind({ resultPageSize: 50 }), runSubmitKind(), forwardEventKind()]);
const client = () => sim.client();

beforeAll(async () => {
  sim = await startSim();
  resetPlatformClients();
  t = await createTestDb({
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_API_RPS: "1000",
    TALLY_ITEM_RETRY_MAX: "2",
    TALLY_FORWARD_RETRY_INITIAL_MS: "10",
    // The test's sink listens on loopback, which destinations may not use unless allowed.
    TALLY_ALLOW_PRIVATE_DESTINATIONS: "127.0.0.1",
  });
  sink = await startSink();
  await createDestination({ url: sink.url, events: ["run.completed"] }, "test");
}, 30_000);
afterAll(async () => {
  await flushApiCalls().catch(() => undefined);
  await sink?.close();
  await sim?.close();
  await t?.cleanup();
});

const drain = () => createWorker({ registry, concurrency: 2, leaseMs: 10_000, owner: "test" }).drain();

function expectAddsUp(r: RunView) {
  const c = r.counts;
  expect(c.pending + c.submitted + c.stored + c.retrying + c.suspect + c.failed).toBe(r.total);
}

/** Drives the run: worker turns, the platform settling its batch jobs, their webhooks; checks counts at every read. */
async function runToEnd(runId: string, maxRounds = 30): Promise<RunView> {
  for (let round = 0; round < maxRounds; round++) {
    await drain();
    const run = await getRun(runId);
    expectAddsUp(run);
    if (run.state === "completed" || run.state === "cancelled") return run;
    const open = await db().runChunk.findMany({ where: { runId, state: "submitted" }, select: { jobId: true } });
    for (const c of open) {
      if (!c.jobId) continue;
      const jobId = c.jobId;
      for (let i = 0; i < 400; i++) {
        const doc = await client().getJob("batch", jobId);
        if (isTerminal(doc.status)) break;
        await new Promise((r) => setTimeout(r, 15));
        expectAddsUp(await getRun(runId)); // reads while the run moves
      }
      await enqueue(db(), processJobItem({ jobId, kind: "batch", source: "webhook" }));
    }
    // The submitter waits a few seconds between looks: make it due now.
    await db().queueItem.updateMany({ where: { kind: RUN_SUBMIT, state: "ready" }, data: { availableAt: new Date() } });
  }
  throw new Error(`run ${runId} did not finish`);
}

const urls = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `https://shop.example/${prefix}/${i}`);

describe("runs", () => {
  it("chunks at 1,000, stores every URL once, exports one row per URL and forwards run.completed once", async () => {
    const list = parseValues([...urls(2500, "a"), "https://shop.example/a/7", ""]);
    const created = await createRun(list, { name: "daily" }, "test");
    expect(created).toMatchObject({ name: "daily", state: "submitting", total: 2500, invalid: 0, duplicates: 1 });
    const run = await runToEnd(created.id);
    expect(run).toMatchObject({ state: "completed", counts: { stored: 2500, failed: 0, pending: 0 } });
    expect(run.chunks).toEqual({ total: 3, submitted: 3 });
    expect(run.duplicateSubmits).toBe(0);
    // Issue 50: the platform's side, and tokens as the platform charged them for the chunks' jobs.
    expect(run.platform).toEqual({ jobs: 3, duplicates: 0, duplicateTokens: 0 });
    const chunkJobs = await db().runChunk.findMany({ where: { runId: created.id }, select: { jobId: true } });
    const perJob = sim.sim.state().perJob;
    expect(run.tokens.charged).toBe(chunkJobs.reduce((n, c) => n + (perJob[c.jobId ?? ""]?.tokensCharged ?? 0), 0));
    expect(run.tokens.charged).toBe(2500);
    expect(run.platformCalls).toBeGreaterThanOrEqual(3);
    const chunks = await db().runChunk.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
    expect(chunks.map((c) => c.size)).toEqual([1000, 1000, 500]);
    // The platform got each URL once.
    const jobs = await Promise.all(chunks.map((c) => client().getBatch(c.jobId ?? "", { page: 1, pageSize: 1 })));
    expect(jobs.map((j) => j.total_urls)).toEqual([1000, 1000, 500]);

    const page = await listRunUrls(run.id, { limit: 2 });
    expect(page.items[0]).toMatchObject({
      url: "https://shop.example/a/0",
      state: "stored",
      attempts: 1,
      itemKey: "0",
    });
    const next = await listRunUrls(run.id, { limit: 2, cursor: page.nextCursor ?? undefined });
    expect(next.items[0]?.url).toBe("https://shop.example/a/2");

    const csv = await new Response((await exportRunCsv(run.id)).body).text();
    const lines = csv.trim().split("\n");
    expect(lines[0]).toMatch(/^position,url,state/);
    const jsonl = (await new Response((await exportRunJsonl(run.id)).body).text()).trim().split("\n");
    expect(jsonl).toHaveLength(2500);
    const rows = jsonl.map((l) => JSON.parse(l) as { url: string; state: string; result: { markdown: string } | null });
    expect(new Set(rows.map((r) => r.url)).size).toBe(2500);
    expect(rows.every((r) => r.state === "stored" && typeof r.result?.markdown === "string")).toBe(true);

    // run.completed: one delivery, sent once.
    for (let i = 0; i < 20 && sink.requests.filter((r) => r.body.includes(run.id)).length === 0; i++) {
      await drain();
      await new Promise((r) => setTimeout(r, 50));
    }
    const sent = sink.requests.filter((r) => r.body.includes('"run.completed"'));
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]?.body ?? "{}").data).toMatchObject({
      runId: run.id,
      name: "daily",
      total: 2500,
      stored: 2500,
      failed: 0,
      tokensCharged: 2500,
      maxTokens: null,
      capReason: null,
    });
  }, 120_000);

  it("retries transient item failures up to the cap and fails permanent ones at once, with reasons; retry-failed sends them again", async () => {
    const list = parseValues([
      ...urls(5, "ok"),
      "https://shop.example/item-fail-503/x",
      "https://shop.example/item-fail-404/y",
    ]);
    const created = await createRun(list, {}, "test");
    const run = await runToEnd(created.id);
    expect(run.counts).toEqual({ pending: 0, submitted: 0, stored: 5, retrying: 0, suspect: 0, failed: 2 });
    const failed = await listRunUrls(run.id, { state: "failed", limit: 10 });
    const byUrl = Object.fromEntries(failed.items.map((u) => [u.url, u]));
    expect(byUrl["https://shop.example/item-fail-503/x"]).toMatchObject({
      attempts: 3,
      errorCode: "EXTRACTION_FAILED",
    });
    expect(byUrl["https://shop.example/item-fail-503/x"]?.errorMessage).toMatch(/503.*after 3 attempts/);
    expect(byUrl["https://shop.example/item-fail-404/y"]).toMatchObject({
      attempts: 1,
      errorCode: "EXTRACTION_FAILED",
    });
    expect(byUrl["https://shop.example/item-fail-404/y"]?.errorMessage).toMatch(/404/);
    expect(run.chunks.submitted).toBe(3); // the first batch, then two follow-ups for the transient one

    const again = await retryFailed(run.id, "test");
    expect(again).toMatchObject({ retried: 2, state: "submitting", counts: { pending: 2, failed: 0, stored: 5 } });
    const end = await runToEnd(run.id);
    expect(end.counts).toMatchObject({ stored: 5, failed: 2 });
    // run.completed stays one event per run.
    expect(await db().outboundDelivery.count({ where: { jobId: run.id } })).toBe(1);
  }, 120_000);

  it("sends the URLs of a batch job that failed as a whole back to pending, within the retry budget", async () => {
    const created = await createRun(
      parseValues(["https://shop.example/b/ok-1", "https://shop.example/b/sim-fail", ...urls(2, "c")]),
      { batchSize: 2 },
      "test",
    );
    // After the first round the failed chunk's URLs are waiting again, not lost.
    await drain();
    const first = await db().runChunk.findFirst({ where: { runId: created.id, seq: 1 } });
    for (let i = 0; i < 200 && !isTerminal((await client().getJob("batch", first?.jobId ?? "")).status); i++)
      await new Promise((r) => setTimeout(r, 15));
    await enqueue(db(), processJobItem({ jobId: first?.jobId ?? "", kind: "batch", source: "webhook" }));
    const worker = createWorker({ registry, concurrency: 1, leaseMs: 10_000, owner: "t2" });
    await worker.drain();
    const partner = await db().runUrl.findFirst({ where: { runId: created.id, url: "https://shop.example/b/ok-1" } });
    expect(["pending", "submitted"]).toContain(partner?.state);
    expect(partner?.errorCode).not.toBeNull();
    const run = await runToEnd(created.id);
    expect(run.counts).toMatchObject({ stored: 2, failed: 2 });
    const failed = await listRunUrls(run.id, { state: "failed", limit: 10 });
    expect(failed.items.map((u) => u.attempts)).toEqual([3, 3]);
    expect(failed.items[0]?.errorMessage).toMatch(/batch job carrying it failed/);
  }, 120_000);

  it("cancel stops the run: URLs not stored become failed (cancelled) and its running batch jobs are cancelled", async () => {
    sim.sim.setConfig({ jobDurationMs: [3000, 4000] });
    try {
      const created = await createRun(parseValues(urls(30, "k")), { batchSize: 10 }, "test");
      await drain();
      const run = await cancelRun(created.id, "test");
      expect(run).toMatchObject({ state: "cancelled", counts: { failed: 30, pending: 0, submitted: 0 } });
      const chunks = await db().runChunk.findMany({ where: { runId: created.id } });
      expect(chunks).toHaveLength(3);
      for (const c of chunks) expect((await client().getJob("batch", c.jobId ?? "")).status).toBe("cancelled");
      const u = (await listRunUrls(created.id, { limit: 1 })).items[0];
      expect(u).toMatchObject({ state: "failed", errorCode: "CANCELLED" });
      await expect(cancelRun(created.id, "test")).rejects.toThrow(/already cancelled/);
    } finally {
      sim.sim.setConfig({ jobDurationMs: [20, 60] });
    }
  }, 60_000);

  it("refuses a list with invalid lines with their line numbers, and creates nothing", async () => {
    const before = await db().run.count();
    const list = parseText("url\nhttps://ok.example/1\nnot a url\n\nftp://x.example/f\nhttps://ok.example/1\n", "csv");
    expect(list).toMatchObject({ invalid: 2, duplicates: 1, urls: ["https://ok.example/1"] });
    await expect(createRun(list, {}, "test")).rejects.toMatchObject({
      code: "bad_request",
      details: {
        invalid: 2,
        invalidLines: [
          { line: 3, value: "not a url", reason: expect.any(String) },
          { line: 5, value: "ftp://x.example/f", reason: expect.any(String) },
        ],
      },
    });
    expect(await db().run.count()).toBe(before);
    const ok = await createRun(list, { ignoreInvalid: true }, "test");
    expect(ok).toMatchObject({ total: 1, invalid: 2, duplicates: 1 });
    await cancelRun(ok.id, "test");
  });

  it("a 502 after the platform wrote the batch: the chunk is adopted, not submitted twice; a lost copy that turns up is counted once", async () => {
    const created = await createRun(parseValues(urls(20, "d")), {}, "test");
    sim.sim.setConfig({ serverErrorAfterWriteRate: 1 });
    await drain();
    sim.sim.setConfig({ serverErrorAfterWriteRate: 0 });
    const chunk = await db().runChunk.findFirstOrThrow({ where: { runId: created.id } });
    expect(chunk).toMatchObject({ state: "posting", postAttempts: 1, jobId: null });
    const before = sim.sim.state().jobs.total;
    await db().queueItem.updateMany({ where: { kind: RUN_SUBMIT, state: "ready" }, data: { availableAt: new Date() } });
    const run = await runToEnd(created.id);
    expect(run).toMatchObject({ state: "completed", duplicateSubmits: 0, counts: { stored: 20 } });
    expect(sim.sim.state().jobs.total).toBe(before); // adopted: no second POST
    const adopted = await db().runChunk.findFirstOrThrow({ where: { runId: created.id } });
    expect(adopted).toMatchObject({ state: "settled", postAttempts: 1 });

    // Had adoption found nothing, the chunk would have been posted again (postAttempts 2) and the lost
    // copy would turn up later: it is counted, and the run's URLs still point at one job each.
    await db().runChunk.update({ where: { id: adopted.id }, data: { postAttempts: 2 } });
    const copy = await client().submitBatch({ urls: urls(20, "d") });
    for (let i = 0; i < 200 && !isTerminal((await client().getJob("batch", copy.job_id)).status); i++)
      await new Promise((r) => setTimeout(r, 15));
    await enqueue(db(), processJobItem({ jobId: copy.job_id, kind: "batch", source: "reconcile" }));
    await drain();
    const after = await getRun(created.id);
    expect(after).toMatchObject({ duplicateSubmits: 1, counts: { stored: 20 } });
    // The copy's tokens are shown beside the run's own, as the platform charged them.
    const copyTokens = sim.sim.state().perJob[copy.job_id]?.tokensCharged;
    expect(copyTokens).toBe(20);
    expect(after.platform).toEqual({ jobs: 1, duplicates: 1, duplicateTokens: copyTokens });
    expect(after.tokens.charged).toBe(20);
    expect(await db().runUrl.count({ where: { runId: created.id, jobId: copy.job_id } })).toBe(0);
  }, 60_000);

  it("a lost copy that settles before the chunk's second POST is answered is still counted, once", async () => {
    // The first POST fails without the platform writing anything: the chunk stays `posting`.
    const created = await createRun(parseValues(urls(20, "e")), {}, "test");
    expect((await sim.control("/_sim/faults", { kind: "server_error", status: 502, count: 1 })).status).toBe(200);
    await drain();
    const chunk = await db().runChunk.findFirstOrThrow({ where: { runId: created.id } });
    expect(chunk).toMatchObject({ state: "posting", postAttempts: 1, jobId: null });

    // A copy of the chunk turns up and settles first (a POST that reached the platform late, which the
    // next look could not take: it carries one URL more), while the chunk still has no job.
    const copy = await client().submitBatch({ urls: [...urls(20, "e"), "https://shop.example/e/extra"] });
    for (let i = 0; i < 200 && !isTerminal((await client().getJob("batch", copy.job_id)).status); i++)
      await new Promise((r) => setTimeout(r, 15));
    await db().runChunk.update({ where: { id: chunk.id }, data: { postAttempts: 2 } });
    await enqueue(db(), processJobItem({ jobId: copy.job_id, kind: "batch", source: "reconcile" }));
    await drain();
    expect((await getRun(created.id)).duplicateSubmits).toBe(0); // the chunk has no job yet: not decided

    // The chunk is posted again and linked to its job: the copy that settled before is counted then.
    await db().queueItem.updateMany({ where: { kind: RUN_SUBMIT, state: "ready" }, data: { availableAt: new Date() } });
    const run = await runToEnd(created.id);
    expect(run).toMatchObject({ state: "completed", duplicateSubmits: 1, counts: { stored: 20 } });
    expect(await db().runUrl.count({ where: { runId: created.id, jobId: copy.job_id } })).toBe(0);
    const notes = await db().jobEvent.count({ where: { jobId: copy.job_id, detail: { contains: "duplicateOf" } } });
    expect(notes).toBe(1);

    // Seen again (a replay), the copy is not counted twice.
    await enqueue(db(), processJobItem({ jobId: copy.job_id, kind: "batch", source: "replay" }));
    await drain();
    const again = await getRun(created.id);
    expect(again.duplicateSubmits).toBe(1);
    expect(again.platform).toEqual({ jobs: 1, duplicates: 1, duplicateTokens: 21 });
  }, 60_000);
});
