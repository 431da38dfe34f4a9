// The postgres sink through Tally's outbox on both of Tally's stores (test/sink-scenarios.ts), what
// a save refuses: a bad config (400 with the field), a sink that cannot be reached or refuses its
// table (400 with the sink's own reason), a private address not allowed; nothing saved; and how a sink
// batch is made.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OutboundDelivery } from "@/generated/prisma/client";
import { setConfigForTests } from "@/lib/config";
import { db, transaction } from "@/lib/db";
import { settleOutcome } from "@/lib/jobs/outcomes";
import { loadDelivery, planDelivery } from "@/lib/outbound/delivery";
import { forwardEventKind } from "@/lib/outbound/handler";
import { FORWARD_EVENT, forwardDedupeKey } from "@/lib/outbound/outbox";
import { recordBatch, sendBatch, SINK_BATCH, takeBatch } from "@/lib/outbound/sink-batch";
import { BATCH_TIMED_OUT } from "@/lib/outbound/sink-send";
import { closeAllSinks } from "@/lib/outbound/sinks/pool";
import { claimByDedupeKeys, createRegistry, releaseAll, runItem } from "@/lib/queue";
import { TallyError } from "@/lib/errors";
import { createDestinationSchema } from "@/lib/outbound/contracts";
import { createDestination } from "@/lib/outbound/destinations";
import { createTestDb, type TestDb } from "@/test/db";
import { describeSink, SINK_TEST_ENV } from "@/test/sink-scenarios";
import { SERVICES, serviceAnswers, type SinkService } from "@/test/sink-services";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb(SINK_TEST_ENV);
});
afterAll(() => t?.cleanup());

await describeSink("postgres");

describe("saving a sink", () => {
  const refused = async (body: unknown) => {
    const parsed = createDestinationSchema.safeParse(body);
    if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    const err = await createDestination(parsed.data, "test").then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TallyError);
    return (err as TallyError).message;
  };

  it("refuses a bad config field by field, and sink fields on a webhook", async () => {
    expect(
      await refused({ type: "postgres", config: { url: "http://x", table: "t" }, events: ["job.stored"] }),
    ).toMatch(/config.url: url must be a postgres/);
    expect(
      await refused({ type: "postgres", config: { url: "postgres://h/db", table: "x; drop" }, events: ["job.stored"] }),
    ).toMatch(/config.table/);
    expect(await refused({ type: "s3", config: { bucket: "b" }, events: ["job.stored"] })).toMatch(/config.region/);
    expect(await refused({ type: "redis", url: "https://a.example", events: ["job.stored"] })).toMatch(/takes config/);
    expect(await refused({ url: "https://a.example", config: {}, events: ["job.stored"] })).toMatch(/config/);
    expect(await refused({ type: "kafka", config: {}, events: ["job.stored"] })).toMatch(/type must be one of/);
    expect(await db().destination.count({ where: { type: { not: "webhook" }, enabled: true } })).toBeLessThanOrEqual(1);
  });

  it("answers the sink's own reason when it cannot connect or refuses, and saves nothing", async () => {
    const before = await db().destination.count();
    expect(
      await refused({
        type: "postgres",
        config: { url: "postgresql://postgres@127.0.0.1:1/nothing", table: "t" },
        events: ["job.stored"],
      }),
    ).toMatch(/The postgres sink refused its config: .*ECONNREFUSED/);
    expect(
      await refused({
        type: "postgres",
        config: { url: "postgresql://postgres@127.0.0.1:5432/no_such_database_here", table: "t" },
        events: ["job.stored"],
      }),
    ).toMatch(/does not exist/);
    setConfigForTests({ ...t.config, TALLY_ALLOW_PRIVATE_DESTINATIONS: undefined });
    try {
      expect(
        await refused({
          type: "redis",
          config: { url: "redis://:hunter2hunter2@127.0.0.1:6379", stream: "s" },
          events: ["job.stored"],
        }),
      ).toMatch(/private, loopback/);
    } finally {
      setConfigForTests(t.config);
    }
    expect(await db().destination.count()).toBe(before);
  });
});

// How a sink batch is made (lib/outbound/sink-batch.ts), on both stores: only its own destination's
// items, smaller after a batch that timed out, within its results budget, and never recording a
// delivery whose item another worker took meanwhile.
describe.skipIf(!(await serviceAnswers("postgres")))("a sink batch", () => {
  const registry = createRegistry([forwardEventKind()]);
  let svc: SinkService;
  let a = "";
  let b = "";
  let n = 0;

  beforeAll(async () => {
    svc = await SERVICES.postgres();
    const sink = (table: string) =>
      createDestination({ type: "postgres", config: { ...svc.config, table }, events: ["job.stored"] }, "test");
    a = (await sink("batch_a")).id;
    b = (await sink("batch_b")).id;
  });
  afterEach(async () => {
    await db().queueItem.deleteMany();
    await db().outboundAttempt.deleteMany({ where: { destinationId: { in: [a, b] } } });
    await db().outboundDelivery.deleteMany({ where: { destinationId: { in: [a, b] } } });
  });
  afterAll(async () => {
    await db().destination.updateMany({ where: { id: { in: [a, b] } }, data: { enabled: false } });
    await closeAllSinks();
    await svc?.close();
  });

  /** `count` jobs stored with one result each; returns their deliveries to `destinationId`, oldest first. */
  async function stored(count: number, destinationId = a) {
    for (let i = 0; i < count; i++) {
      const id = `batch-job-${++n}`;
      await db().job.create({ data: { id, kind: "extract", url: `https://example.com/b/${n}` } });
      await db().result.create({ data: { jobId: id, itemKey: "0", format: "markdown", markdown: `# ${n}` } });
      await transaction((tx) => settleOutcome(tx, id, "stored"));
    }
    return db().outboundDelivery.findMany({ where: { destinationId }, orderBy: { id: "asc" } });
  }

  /** The first delivery's item claimed, as a worker would, and its batch taken. */
  async function batchOf(first: OutboundDelivery, leaseMs = 5_000) {
    const [item] = await claimByDedupeKeys({
      kind: FORWARD_EVENT,
      dedupeKeys: [forwardDedupeKey(first.id)],
      owner: "worker",
      limit: 1,
      leaseMs,
    });
    const d = await loadDelivery(first.id);
    if (!d) throw new Error("delivery gone");
    const plan = planDelivery(d, true, Date.now());
    if (plan.kind !== "send") throw new Error(`delivery is ${plan.kind}`);
    return { item, batch: await takeBatch(d, plan.retryUntil, item, leaseMs) };
  }

  it("takes only its own destination's deliveries", async () => {
    const [first] = await stored(12);
    const [item] = await claimByDedupeKeys({
      kind: FORWARD_EVENT,
      dedupeKeys: [forwardDedupeKey(first.id)],
      owner: "worker",
      limit: 1,
      leaseMs: 5_000,
    });
    expect(await runItem(registry, item, { timeoutMs: 10_000 })).toBe("acked");
    const rows = await db().outboundDelivery.findMany({ where: { destinationId: { in: [a, b] } } });
    const of = (id: string) => rows.filter((r) => r.destinationId === id);
    expect(of(a).map((r) => [r.status, r.attempts])).toEqual(Array(12).fill(["delivered", 1]));
    expect(of(b).map((r) => [r.status, r.attempts])).toEqual(Array(12).fill(["pending", 0]));
    const bItems = await db().queueItem.findMany({
      where: { dedupeKey: { in: of(b).map((r) => forwardDedupeKey(r.id)) } },
    });
    expect(bItems.map((i) => [i.state, i.attempts])).toEqual(Array(12).fill(["ready", 0]));
  });

  it("fails only the event whose body the body store cannot give back, naming its result; sends the rest", async () => {
    await stored(5);
    // A stored job whose result names an object the store does not have (lost, or never restored).
    const lost = `batch-job-lost-${++n}`;
    await db().job.create({ data: { id: lost, kind: "extract", url: "https://example.com/lost" } });
    await db().result.create({
      data: {
        jobId: lost,
        itemKey: "0",
        format: "markdown",
        markdownKey: "ab".repeat(32),
        markdownCodec: "br",
        markdownSize: 50_000,
      },
    });
    await transaction((tx) => settleOutcome(tx, lost, "stored"));
    const rows = await db().outboundDelivery.findMany({ where: { destinationId: a }, orderBy: { id: "asc" } });
    const [item] = await claimByDedupeKeys({
      kind: FORWARD_EVENT,
      dedupeKeys: [forwardDedupeKey(rows[0].id)],
      owner: "worker",
      limit: 1,
      leaseMs: 5_000,
    });
    await runItem(registry, item, { timeoutMs: 10_000 });
    const after = await db().outboundDelivery.findMany({ where: { destinationId: a }, orderBy: { id: "asc" } });
    const bad = after.find((d) => d.jobId === lost);
    expect(bad).toMatchObject({ status: "retrying", attempts: 1 });
    expect(bad?.lastError).toMatch(new RegExp(`body_missing: the markdown of result 0 of job ${lost}`));
    expect(after.filter((d) => d.jobId !== lost).map((d) => d.status)).toEqual(Array(5).fill("delivered"));
  });

  it("is all that is due, and smaller (halved per attempt) after a batch that timed out", async () => {
    const rows = await stored(60);
    const full = await batchOf(rows[0]);
    expect(full.batch.members).toHaveLength(60);
    await releaseAll([full.item, ...full.batch.held]);
    await db().outboundDelivery.update({
      where: { id: rows[0].id },
      data: { status: "retrying", attempts: 2, lastError: `${BATCH_TIMED_OUT} 3000 ms` },
    });
    const after = await batchOf(rows[0]);
    expect(after.batch.members).toHaveLength(SINK_BATCH / 4);
  });

  it("stays within its results budget and hands the rest back at once, their attempt not spent", async () => {
    const rows = await stored(10);
    await db().job.updateMany({ where: { id: { in: rows.map((r) => r.jobId) } }, data: { resultCount: 900 } });
    const { batch } = await batchOf(rows[0]);
    expect(batch.members.map((m) => m.delivery.id)).toEqual([rows[0].id, rows[1].id]);
    const back = await db().queueItem.findMany({
      where: { dedupeKey: { in: rows.slice(2).map((r) => forwardDedupeKey(r.id)) } },
    });
    expect(back.map((i) => [i.state, i.attempts])).toEqual(Array(8).fill(["ready", 0]));
    expect(back.every((i) => i.availableAt.getTime() <= Date.now())).toBe(true);
  });

  it("does not record a delivery whose item another worker took after its lease expired", async () => {
    const rows = await stored(5);
    const { batch } = await batchOf(rows[0], 150);
    expect(batch.members).toHaveLength(5);
    await new Promise((r) => setTimeout(r, 200));
    const [taken] = await claimByDedupeKeys({
      kind: FORWARD_EVENT,
      dedupeKeys: [forwardDedupeKey(rows[3].id)],
      owner: "other",
      limit: 1,
      leaseMs: 5_000,
    });
    expect(taken).toBeTruthy();
    const sent = await sendBatch(batch, new AbortController().signal);
    expect(await recordBatch(batch, sent)).toBeUndefined();
    const after = await db().outboundDelivery.findMany({ where: { destinationId: a }, orderBy: { id: "asc" } });
    expect(after.map((r) => [r.status, r.attempts])).toEqual([
      ["delivered", 1],
      ["delivered", 1],
      ["delivered", 1],
      ["pending", 0],
      ["delivered", 1],
    ]);
    expect(await db().queueItem.findUnique({ where: { id: taken.id } })).toMatchObject({
      state: "leased",
      leaseOwner: taken.leaseOwner,
    });
  });
});
