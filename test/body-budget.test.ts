// Issue 38: the readers of stored bodies page by characters as well as rows, on both stores. 40
// results of 1 Mi characters (some markdown, some html, some both) and one of 16 Mi + 1 against the
// 16 Mi budget: each page of the results export, the run export, a sink batch and the settle pass's
// fingerprint reads holds at most the budget (or one row alone), yet every row comes out once, in order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, transaction } from "@/lib/db";
import { settleOutcome } from "@/lib/jobs/outcomes";
import { loadDelivery, planDelivery } from "@/lib/outbound/delivery";
import { FORWARD_EVENT, forwardDedupeKey } from "@/lib/outbound/outbox";
import { BATCH_BODY_CHARS, takeBatch } from "@/lib/outbound/sink-batch";
import { claimByDedupeKeys } from "@/lib/queue";
import { exportQuerySchema } from "@/lib/results/contracts";
import { PAGE_BODY_CHARS } from "@/lib/results/csv-stream";
import { exportPage, type ExportCursor } from "@/lib/results/export";
import { exportConditions } from "@/lib/results/export-filters";
import { exportRunJsonl, runExportPage } from "@/lib/results/run-export";
import { bodyPages, SETTLE_BODY_CHARS } from "@/lib/runs/settle";
import { createTestDb, type TestDb } from "@/test/db";

const MI = 1024 * 1024;
const BIG = 40;
const T0 = Date.parse("2026-12-01T10:00:00Z");

/** Row i's bodies: small ones between big ones, both columns on some, one over the budget alone. */
function bodies(i: number): { markdown: string | null; html: string | null } {
  if (i === 7) return { markdown: "m".repeat(PAGE_BODY_CHARS + 1), html: null };
  if (i % 5 === 4) return { markdown: `# small ${i}`, html: null };
  if (i % 3 === 0) return { markdown: "m".repeat(MI / 2), html: "h".repeat(MI / 2) };
  return i % 2 ? { markdown: "m".repeat(MI), html: null } : { markdown: null, html: "h".repeat(MI) };
}
const sizeOf = (b: { markdown: string | null; html: string | null }) =>
  (b.markdown?.length ?? 0) + (b.html?.length ?? 0);
const COUNT = BIG + Math.ceil(BIG / 4);
const expected = Array.from({ length: COUNT }, (_, i) => sizeOf(bodies(i)));

/** A page holds at most `budget` characters of bodies, or is one row. */
function expectWithin(sizes: number[], budget: number) {
  expect(sizes.length).toBeGreaterThan(0);
  if (sizes.length > 1) expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(budget);
}

let t: TestDb;
const jobId = "budget-job";
const resultIds: number[] = [];
beforeAll(async () => {
  t = await createTestDb();
  await db().job.create({ data: { id: jobId, kind: "batch", url: "https://example.com/0" } });
  for (let i = 0; i < COUNT; i++) {
    // Pairs share a millisecond: the keyset's tie on id is crossed by the pages.
    const r = await db().result.create({
      data: {
        jobId,
        itemKey: String(i),
        url: `https://example.com/${i}`,
        format: "markdown",
        ...bodies(i),
        createdAt: new Date(T0 + Math.floor(i / 2)),
      },
      select: { id: true },
    });
    resultIds.push(r.id);
  }
}, 120_000);
afterAll(() => t?.cleanup());

describe("a results export page", () => {
  it("stops at the budget and still reads every row once, in (createdAt, id) order", async () => {
    const filters = exportConditions(exportQuerySchema.parse({}));
    const bound = Math.max(...resultIds);
    const seen: number[] = [];
    let last: ExportCursor | null = null;
    let pages = 0;
    for (;;) {
      const page = await exportPage(filters, bound, last);
      pages++;
      expectWithin(
        page.rows.map((r) => (r.markdown?.length ?? 0) + (r.html?.length ?? 0)),
        PAGE_BODY_CHARS,
      );
      seen.push(...page.rows.map((r) => r.id));
      const end = page.rows.at(-1);
      if (!page.more || !end) break;
      last = { at: end.createdAt, id: end.id };
    }
    expect(seen).toEqual(resultIds);
    expect(pages).toBeGreaterThanOrEqual(4);
  });

  it("ends at once when nothing matches", async () => {
    const filters = exportConditions(exportQuerySchema.parse({ kind: "crawl" }));
    expect(await exportPage(filters, Math.max(...resultIds), null)).toEqual({ rows: [], more: false });
  });
});

describe("a run export page", () => {
  const runId = "budget-run-0000";
  beforeAll(async () => {
    await db().run.create({
      data: { id: runId, name: "budget", total: COUNT + 1, batchSize: 1000, request: "{}", createdBy: "test" },
    });
    // Every result's URL stored, and one URL that failed (no result): all come out, in position order.
    await db().runUrl.createMany({
      data: [
        ...Array.from({ length: COUNT }, (_, i) => ({
          runId,
          position: 2 * i,
          url: `https://example.com/${i}`,
          state: "stored",
          jobId,
          itemKey: String(i),
        })),
        { runId, position: 5, url: "https://example.com/failed", state: "failed" },
      ],
    });
  });

  it("stops at the budget and still reads every URL once, in position order", async () => {
    for (const filter of [{}, { state: "stored" }]) {
      const positions: number[] = [];
      let after = -1;
      for (;;) {
        const page = await runExportPage(runId, after, filter);
        expectWithin(
          page.rows.map((r) => (r.markdown?.length ?? 0) + (r.html?.length ?? 0)),
          PAGE_BODY_CHARS,
        );
        positions.push(...page.rows.map((r) => r.position));
        const end = page.rows.at(-1);
        if (!page.more || !end) break;
        after = end.position;
      }
      const want = Array.from({ length: COUNT }, (_, i) => 2 * i);
      expect(positions).toEqual(filter.state ? want : [...want, 5].sort((a, b) => a - b));
    }
  });

  it("streams the pages as JSON Lines without stopping at a short page", async () => {
    const lines = (await new Response((await exportRunJsonl(runId)).body).text()).trim().split("\n");
    const rows = lines.map((l) => JSON.parse(l) as { position: number; result: { markdown: string | null } | null });
    expect(rows.map((r) => r.position)).toEqual(
      [...Array.from({ length: COUNT }, (_, i) => 2 * i), 5].sort((a, b) => a - b),
    );
    expect(rows.find((r) => r.position === 14)?.result?.markdown).toHaveLength(PAGE_BODY_CHARS + 1);
  });
});

describe("the settle pass's fingerprint reads", () => {
  it("read the bodies a budget at a time, each once, in the order asked", async () => {
    const order = [...resultIds].reverse();
    const pages = await transaction(async (tx) => {
      const out: Array<Array<{ id: number; size: number }>> = [];
      for await (const page of bodyPages(tx, jobId, order)) out.push(page.map((r) => ({ id: r.id, size: sizeOf(r) })));
      return out;
    });
    for (const page of pages)
      expectWithin(
        page.map((r) => r.size),
        SETTLE_BODY_CHARS,
      );
    expect(pages.flat().map((r) => r.id)).toEqual(order);
    expect(pages.flat().map((r) => r.size)).toEqual([...expected].reverse());
    expect(pages.length).toBeGreaterThanOrEqual(4);
  });
});

describe("a sink batch", () => {
  const destinationId = "budget-sink";
  beforeAll(async () => {
    await db().destination.create({
      data: {
        id: destinationId,
        type: "postgres",
        url: "postgres://127.0.0.1:1/none",
        config: JSON.stringify({ url: "postgresql://postgres@127.0.0.1:1/none", table: "t" }),
        events: "job.stored",
        secret: "unused-secret",
        secretLast4: "cret",
      },
    });
    // One job.stored event per result, each job carrying that one result.
    for (let i = 0; i < COUNT; i++) {
      const id = `sink-job-${i}`;
      await db().job.create({ data: { id, kind: "extract", url: `https://example.com/${i}` } });
      await db().result.update({ where: { id: resultIds[i] }, data: { jobId: id } });
      await transaction((tx) => settleOutcome(tx, id, "stored"));
    }
  }, 120_000);
  afterAll(async () => {
    await db().result.updateMany({ where: { jobId: { startsWith: "sink-job-" } }, data: { jobId } });
  });

  it("takes events within the budget of bodies, and every event once over the batches", async () => {
    const all = await db().outboundDelivery.findMany({ where: { destinationId }, orderBy: { id: "asc" } });
    expect(all).toHaveLength(COUNT);
    const sizeOfJob = new Map(all.map((d, i) => [d.id, expected[i]]));
    const taken: number[] = [];
    for (let round = 0; round < COUNT; round++) {
      const first = await db().outboundDelivery.findFirst({
        where: { destinationId, status: "pending" },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      });
      if (!first) break;
      const [item] = await claimByDedupeKeys({
        kind: FORWARD_EVENT,
        dedupeKeys: [forwardDedupeKey(first.id)],
        owner: "worker",
        limit: 1,
        leaseMs: 60_000,
      });
      const d = await loadDelivery(first.id);
      if (!d || !item) throw new Error("delivery or item gone");
      const plan = planDelivery(d, true, Date.now());
      if (plan.kind !== "send") throw new Error(`not to be sent: ${plan.kind}`);
      const batch = await takeBatch(d, plan.retryUntil, item, 60_000);
      const ids = batch.members.map((m) => m.delivery.id);
      expectWithin(
        ids.map((id) => sizeOfJob.get(id) ?? 0),
        BATCH_BODY_CHARS,
      );
      taken.push(...ids);
      // As if sent: delivered, their items gone.
      await db().outboundDelivery.updateMany({ where: { id: { in: ids } }, data: { status: "delivered" } });
      await db().queueItem.deleteMany({ where: { dedupeKey: { in: ids.map(forwardDedupeKey) } } });
    }
    expect([...taken].sort((a, b) => a - b)).toEqual(all.map((d) => d.id));
    expect(new Set(taken).size).toBe(COUNT);
  });
});
