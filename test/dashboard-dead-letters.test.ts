// Dead-letter actions: by ids and by filter, the 409 when the confirmed count is stale, rows changed
// meanwhile skipped and counted (also under a real race), every action audited; retry re-queues a
// job whose queue item gave up, and resubmits a job the platform failed (against the simulator).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { discardDeadLetters, retryDeadLetters } from "@/lib/dead-letters/actions";
import { listDeadLetters, deadLetterListQuerySchema } from "@/lib/dead-letters/list";
import { db } from "@/lib/db";
import { TallyError } from "@/lib/errors";
import { setupPipeline, type Pipeline } from "@/lib/jobs/jobs.test-util";
import { submitJob } from "@/lib/jobs/submit";

let p: Pipeline;
beforeAll(async () => {
  p = await setupPipeline();
});
afterAll(() => p?.close());
beforeEach(async () => {
  await db().deadLetter.deleteMany();
  await db().auditLog.deleteMany();
});

async function seed(rows: Array<{ state?: string; errorCode?: string; kind?: string; jobId?: string }>) {
  const ids: number[] = [];
  for (const r of rows) {
    const dl = await db().deadLetter.create({
      data: {
        kind: r.kind ?? "process_job",
        errorCode: r.errorCode ?? "EXTRACTION_FAILED",
        errorMessage: "boom",
        state: r.state ?? "open",
        jobId: r.jobId ?? null,
      },
    });
    ids.push(dl.id);
  }
  return ids;
}

const states = async () => Object.fromEntries((await db().deadLetter.findMany()).map((d) => [d.id, d.state]));

describe("discard", () => {
  it("by ids: changes the open rows, keeps the reason, skips and counts the others, audits", async () => {
    const [a, b, c, done] = await seed([{}, {}, {}, { state: "discarded" }]);
    const s = await discardDeadLetters({ ids: [a!, b!, c!, done!, 99_999], reason: "target is gone for good" }, "op");
    expect(s).toMatchObject({ action: "discard", requested: 5, changed: 3, skipped: 2, failed: 0 });
    const row = await db().deadLetter.findUniqueOrThrow({ where: { id: a! } });
    expect(row).toMatchObject({ state: "discarded", resolution: "target is gone for good", resolvedBy: "op" });
    const audit = await db().auditLog.findFirstOrThrow({ where: { action: "dead_letters.discard" } });
    expect(JSON.parse(audit.detail ?? "{}")).toMatchObject({
      changed: 3,
      skipped: 2,
      reason: "target is gone for good",
    });
  });

  it("by filter: acts only when the confirmed count is still true, else 409 with the current count", async () => {
    await seed([{ errorCode: "A" }, { errorCode: "A" }, { errorCode: "B" }, { errorCode: "A", state: "retried" }]);
    const err = await discardDeadLetters(
      { filter: { errorCode: "A" }, expectedCount: 3, reason: "stale count" },
      "op",
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TallyError);
    expect(err).toMatchObject({ code: "conflict", details: { currentCount: 2 } });
    expect(Object.values(await states()).filter((s) => s === "discarded")).toHaveLength(0);
    const refused = await db().auditLog.findFirstOrThrow({ where: { action: "dead_letters.discard" } });
    expect(refused.ok).toBe(false);

    const s = await discardDeadLetters({ filter: { errorCode: "A" }, expectedCount: 2, reason: "confirmed" }, "op");
    expect(s).toMatchObject({ requested: 2, changed: 2, skipped: 0 });
    expect(Object.values(await states()).sort()).toEqual(["discarded", "discarded", "open", "retried"]);
  });

  it("two operators racing on the same rows: each row is changed once, the rest counted as skipped", async () => {
    const ids = await seed(Array.from({ length: 40 }, () => ({})));
    const [x, y] = await Promise.all([
      discardDeadLetters({ ids, reason: "first" }, "op1"),
      discardDeadLetters({ ids, reason: "second" }, "op2"),
    ]);
    expect(x.changed + y.changed).toBe(40);
    expect(x.skipped + y.skipped).toBe(40);
    expect(Object.values(await states()).every((s) => s === "discarded")).toBe(true);
  });
});

describe("retry", () => {
  it("re-queues a job whose queue item gave up; skips rows no longer open", async () => {
    await db().job.create({ data: { id: "stuck-1", kind: "extract", outcome: "pending" } });
    const [a, gone] = await seed([{ jobId: "stuck-1", errorCode: "UPSTREAM" }, { state: "discarded" }]);
    const s = await retryDeadLetters({ ids: [a!, gone!] }, "op");
    expect(s).toMatchObject({ requested: 2, changed: 1, skipped: 1, failed: 0 });
    expect(s.results.find((r) => r.id === a)?.result).toBe("requeued");
    const item = await db().queueItem.findFirstOrThrow({ where: { jobId: "stuck-1" } });
    expect(item).toMatchObject({ kind: "process_job", state: "ready", dedupeKey: "job:stuck-1" });
    expect(await db().deadLetter.findUniqueOrThrow({ where: { id: a! } })).toMatchObject({
      state: "retried",
      resolvedBy: "op",
    });
    expect((await db().auditLog.findFirstOrThrow({ where: { action: "dead_letters.retry" } })).ok).toBe(true);
    // A second dead letter for the same job while its item is still live: nothing queued twice.
    const [again] = await seed([{ jobId: "stuck-1" }]);
    expect((await retryDeadLetters({ ids: [again!] }, "op")).results[0]?.result).toBe("already_queued");
    expect(await db().queueItem.count({ where: { jobId: "stuck-1" } })).toBe(1);
    await db().queueItem.deleteMany({ where: { jobId: "stuck-1" } }); // the platform has never heard of it
  });

  it("resubmits a job the platform failed; the new job is linked both ways and ends stored", async () => {
    const { jobId } = await submitJob({ kind: "extract", url: "https://example.com/sim-fail/dl-retry" });
    const failed = await p.settleAndProcess("extract", jobId);
    expect(failed.outcome).toBe("dead_lettered");
    const dl = await db().deadLetter.findFirstOrThrow({ where: { jobId } });
    // "sim-fail" fails every time; a clean platform lets the resubmission through.
    await db().job.update({
      where: { id: jobId },
      data: { request: JSON.stringify({ url: "https://example.com/fixed/dl-retry" }) },
    });

    const s = await retryDeadLetters({ ids: [dl.id] }, "op");
    expect(s).toMatchObject({ changed: 1, skipped: 0, failed: 0 });
    const newId = s.results[0]?.newJobId;
    if (!newId) throw new Error("no new job");
    expect(await db().job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({
      outcome: "resubmitted",
      resubmittedAsId: newId,
    });
    expect(await db().job.findUniqueOrThrow({ where: { id: newId } })).toMatchObject({ resubmittedFromId: jobId });
    expect(await db().deadLetter.findUniqueOrThrow({ where: { id: dl.id } })).toMatchObject({
      state: "retried",
      resolution: `resubmitted as ${newId}`,
    });
    expect(await p.settleAndProcess("extract", newId)).toMatchObject({ outcome: "stored" });

    // the same dead letter cannot be retried twice
    expect(await retryDeadLetters({ ids: [dl.id] }, "op")).toMatchObject({ changed: 0, skipped: 1 });
  });

  it("a job without an original request cannot be resubmitted: fails in words, stays open", async () => {
    await db().job.create({
      data: { id: "heard-only", kind: "extract", outcome: "dead_lettered", platformStatus: "failed" },
    });
    const [a] = await seed([{ jobId: "heard-only" }]);
    const s = await retryDeadLetters({ ids: [a!] }, "op");
    expect(s).toMatchObject({ changed: 0, failed: 1 });
    expect(s.results[0]?.message).toMatch(/no original request/);
    expect(await db().deadLetter.findUniqueOrThrow({ where: { id: a! } })).toMatchObject({ state: "open" });
    expect((await db().auditLog.findFirstOrThrow({ where: { action: "dead_letters.retry" } })).ok).toBe(false);
  });
});

describe("list", () => {
  it("pages newest first without repeats, with the filter's total", async () => {
    await seed(Array.from({ length: 7 }, (_, i) => ({ errorCode: i % 2 ? "ODD" : "EVEN" })));
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await listDeadLetters(deadLetterListQuerySchema.parse({ limit: "3", errorCode: "EVEN", cursor }));
      expect(page.total).toBe(4);
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
  });
});
