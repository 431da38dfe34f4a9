// Sink batches (lib/outbound/sink-batch.ts) keep the sink promises for every type: many events go as
// batches and each is in effect once, across a refused batch and its retry, one event a database
// refuses among good ones, the sink's answers lost mid-batch (the writes took effect, the connections
// died before their acknowledgements), and a worker killed between a batch's write and its record (its
// leases left to expire, then the queue worked again). Registered by describeSink (test/sink-scenarios.ts).
import { expect, it } from "vitest";
import type { OutboundDelivery } from "@/generated/prisma/client";
import { db } from "@/lib/db";
import { loadDelivery, planDelivery } from "@/lib/outbound/delivery";
import { forwardDedupeKey, forwardEventPayload } from "@/lib/outbound/outbox";
import { sendBatch, takeBatch } from "@/lib/outbound/sink-batch";
import { claim } from "@/lib/queue";
import type { SinkType } from "@/lib/outbound/sink-config";
import type { SinkService } from "./sink-services";

export type SinkCase = {
  type: SinkType;
  svc(): SinkService;
  destinationId(): string;
  /** What the sink must hold once everything is delivered; each settle adds its part. */
  expected: string[];
  settle(outcome: "stored" | "dead_lettered" | "cancelled"): Promise<string[]>;
  drain(enough?: () => Promise<boolean>): Promise<void>;
  expectOnceEach(): Promise<void>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end && !(await check());) await sleep(20);
}

export function batchScenarios(c: SinkCase): void {
  /** The deliveries made since `from` (ids above it), oldest first. */
  const since = (from: number): Promise<OutboundDelivery[]> =>
    db().outboundDelivery.findMany({
      where: { destinationId: c.destinationId(), id: { gt: from } },
      orderBy: { id: "asc" },
    });
  const lastId = async () => (await db().outboundDelivery.aggregate({ _max: { id: true } }))._max.id ?? 0;
  /** `n` events: eight stored in ten, one dead-lettered, one cancelled (or all stored). */
  async function settleMany(n: number, onlyStored = false) {
    for (let i = 0; i < n; i++) {
      const outcome = onlyStored || i % 10 < 8 ? "stored" : i % 10 === 8 ? "dead_lettered" : "cancelled";
      c.expected.push(...(await c.settle(outcome)));
    }
  }

  it("sends many events as batches, each once in effect, across a refused batch and its retry", async () => {
    const from = await lastId();
    // Refusing empties some sinks (a stream, a bucket): what they held is checked first, then forgotten.
    await c.expectOnceEach();
    await c.svc().refuse();
    if (c.svc().refuseEmpties) c.expected.length = 0;
    await settleMany(60);
    await c.drain(async () => (await since(from)).every((d) => d.attempts >= 2));
    const failing = await since(from);
    expect(failing).toHaveLength(60);
    for (const d of failing) {
      expect(d.status).toBe("retrying");
      expect(d.lastError).toMatch(c.svc().refusal);
    }
    await c.svc().allow();
    await c.drain();
    const done = await since(from);
    expect(done.every((d) => d.status === "delivered")).toBe(true);
    // Every attempt recorded for its own delivery, the failed ones and the one that succeeded.
    const attempts = await db().outboundAttempt.findMany({ where: { deliveryId: { in: done.map((d) => d.id) } } });
    expect(attempts).toHaveLength(done.reduce((a, d) => a + d.attempts, 0));
    for (const d of done) expect(attempts.filter((a) => a.deliveryId === d.id && a.ok)).toHaveLength(1);
    // Batched: the first attempts of most deliveries were recorded together, at one instant.
    const together = new Map<number, number>();
    for (const a of attempts.filter((x) => x.attempt === 1))
      together.set(a.at.getTime(), (together.get(a.at.getTime()) ?? 0) + 1);
    expect(Math.max(...together.values())).toBeGreaterThanOrEqual(40);
    await c.expectOnceEach();
  });

  const database = c.type === "postgres" || c.type === "mysql";
  it.skipIf(!database)(
    "fails only the event a database refuses; the rest of its batch is delivered at once",
    async () => {
      const svc = c.svc();
      if (!svc.refuseJob || !svc.allowJob) throw new Error(`${c.type}: no way to refuse one job's rows`);
      const from = await lastId();
      await settleMany(20, true);
      const bad = (await since(from))[7].jobId;
      await svc.refuseJob(bad);
      await c.drain(async () => ((await since(from)).find((d) => d.jobId === bad)?.attempts ?? 0) >= 2);
      const rows = await since(from);
      for (const d of rows.filter((r) => r.jobId !== bad))
        expect(d).toMatchObject({ status: "delivered", attempts: 1 });
      expect(rows.find((d) => d.jobId === bad)).toMatchObject({ status: "retrying" });
      expect(rows.find((d) => d.jobId === bad)?.lastError).toMatch(/refuse_one/);
      await svc.allowJob();
      await c.drain();
      expect((await since(from)).every((d) => d.status === "delivered")).toBe(true);
      await c.expectOnceEach();
    },
  );

  it("sends again, once in effect, a batch whose acknowledgements were lost with its connections", async () => {
    const svc = c.svc();
    const from = await lastId();
    // Stored events only: a database writes them in one statement, which commits before its answer.
    await settleMany(40, true);
    const before = (await svc.effect()).length;
    svc.proxy.stall();
    const round = c.drain(async () => true);
    // The batch's writes reach the service and take effect; their answers are held back. Then the kill.
    await until(async () => (await svc.effect()).length > before, 5_000);
    expect((await svc.effect()).length).toBeGreaterThan(before);
    svc.proxy.killAll();
    await round;
    await c.drain();
    const done = await since(from);
    expect(done.every((d) => d.status === "delivered")).toBe(true);
    const failed = await db().outboundAttempt.count({
      where: { deliveryId: { in: done.map((d) => d.id) }, ok: false },
    });
    expect(failed).toBeGreaterThan(0);
    await c.expectOnceEach();
  });

  it("a worker killed between a batch's write and its record: its leases expire, the events go again, once in effect", async () => {
    const from = await lastId();
    await settleMany(30);
    const [item] = await claim({ owner: "doomed", limit: 1, leaseMs: 400 });
    const d = await loadDelivery(forwardEventPayload.parse(JSON.parse(item.payload)).deliveryId);
    if (!d) throw new Error("the claimed delivery is gone");
    const plan = planDelivery(d, true, Date.now());
    if (plan.kind !== "send") throw new Error(`the claimed delivery is ${plan.kind}`);
    const batch = await takeBatch(d, plan.retryUntil, item, 400);
    expect(batch.members).toHaveLength(30);
    const sent = await sendBatch(batch, new AbortController().signal);
    expect(sent.every((s) => s.result?.ok)).toBe(true);
    // Killed here: the sink holds the events; Tally recorded nothing and acked nothing.
    const unrecorded = await since(from);
    expect(unrecorded.every((r) => r.status === "pending" && r.attempts === 0)).toBe(true);
    const keys = unrecorded.map((r) => forwardDedupeKey(r.id));
    expect(await db().queueItem.count({ where: { dedupeKey: { in: keys }, state: "leased" } })).toBe(30);
    await sleep(450);
    await c.drain();
    const done = await since(from);
    // Sent twice, recorded once: the write nobody recorded left no attempt behind.
    for (const r of done) expect(r).toMatchObject({ status: "delivered", attempts: 1 });
    expect(await db().queueItem.count({ where: { dedupeKey: { in: keys } } })).toBe(0);
    await c.expectOnceEach();
  });
}
