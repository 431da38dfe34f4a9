// The worker loop against a slow simulator: the concurrency limit holds, a lease is renewed while an
// item runs, a per-item timeout cuts a stuck item short (retried, not lost), and a shutdown stops
// claiming and hands leases back at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { waitFor } from "@/lib/simulator/test-harness.test-util";
import { setupPipeline, type Pipeline } from "../jobs/jobs.test-util";
import { submitJob } from "../jobs/submit";
import { z } from "zod";
import { createRegistry, defineKind, enqueue, rescheduleIn } from "@/lib/queue";
import { createWorker } from "./worker";

let p: Pipeline;
beforeAll(async () => {
  p = await setupPipeline();
});
afterAll(() => p?.close());

async function settledJobs(n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await submitJob({ kind: "extract", url: `https://example.com/w/${i}` })).jobId);
  for (const id of ids) await p.waitSettled("extract", id);
  return ids;
}

describe("worker", () => {
  it("respects the concurrency limit and releases leases on shutdown without using attempts", async () => {
    const ids = await settledJobs(3);
    for (const id of ids) await p.enqueueJob(id, "extract");
    await p.sim.control("/_sim/config", { slowResponseRate: 1, slowResponseMs: 3000 });
    const worker = createWorker({ registry: p.registry, concurrency: 2, leaseMs: 20_000, idleMs: 20 });
    try {
      worker.start();
      await waitFor("two items in flight", () => worker.inFlight() === 2);
      expect(await db().queueItem.count({ where: { state: "leased" } })).toBe(2);
      const started = Date.now();
      await worker.stop(0);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await p.sim.control("/_sim/config", { slowResponseRate: 0 });
    }
    const items = await db().queueItem.findMany({ where: { jobId: { in: ids } } });
    expect(items.map((i) => [i.state, i.attempts, i.leaseOwner])).toEqual(ids.map(() => ["ready", 0, null]));

    // A fresh worker finishes them all.
    const next = createWorker({ registry: p.registry, concurrency: 2, leaseMs: 20_000, idleMs: 20 });
    next.start();
    await waitFor(
      "all stored",
      async () => (await db().job.count({ where: { id: { in: ids }, outcome: "stored" } })) === 3,
      10_000,
    );
    await next.stop(5000);
  });

  it("renews the lease of an item that runs longer than it: claimed once, stored once", async () => {
    const [id] = await settledJobs(1);
    await p.enqueueJob(id, "extract");
    await p.sim.control("/_sim/config", { slowResponseRate: 1, slowResponseMs: 1000 });
    try {
      // Free slots and a lease shorter than one platform call: without renewal the worker would claim
      // the item a second time while the first run is still waiting for the platform.
      const worker = createWorker({
        registry: p.registry,
        concurrency: 3,
        leaseMs: 300,
        timeoutMs: 10_000,
        idleMs: 20,
      });
      worker.start();
      await waitFor(
        "item settled",
        async () => (await db().queueItem.count({ where: { jobId: id, state: { in: ["ready", "leased"] } } })) === 0,
        10_000,
      );
      await worker.stop(5000);
    } finally {
      await p.sim.control("/_sim/config", { slowResponseRate: 0 });
    }
    expect(await db().queueItem.findFirstOrThrow({ where: { jobId: id } })).toMatchObject({
      state: "done",
      attempts: 1,
    });
    expect(await db().job.findUniqueOrThrow({ where: { id } })).toMatchObject({ outcome: "stored" });
  });

  it("cuts an item off at its timeout and retries it later", async () => {
    const [id] = await settledJobs(1);
    await p.enqueueJob(id, "extract");
    await p.sim.control("/_sim/config", { slowResponseRate: 1, slowResponseMs: 2000 });
    try {
      const worker = createWorker({ registry: p.registry, concurrency: 1, leaseMs: 20_000, timeoutMs: 200 });
      await worker.drain();
    } finally {
      await p.sim.control("/_sim/config", { slowResponseRate: 0 });
    }
    const item = await db().queueItem.findFirstOrThrow({ where: { jobId: id } });
    expect(item).toMatchObject({ state: "ready", attempts: 1 });
    expect(item.lastError).toContain("timed out");
    expect(item.availableAt.getTime()).toBeGreaterThan(Date.now());
  });
});

describe("worker loop", () => {
  it("lets timers run while items without I/O come back at once (a sink reconnecting fails every send at once)", async () => {
    // On SQLite a statement answers as a promise that never leaves the microtask queue: a loop of such
    // items that never yields would starve every timer, a sink client's reconnect among them. The
    // handler counts its calls, so the check needs no timer of its own.
    let calls = 0;
    let timerAfter: number | null = null;
    let enough = () => {};
    const done = new Promise<void>((resolve) => (enough = resolve));
    const spin = defineKind({
      name: "spin_test",
      schema: z.object({}),
      handle: async () => {
        if (++calls >= 400) enough();
        return rescheduleIn(0, "again at once");
      },
    });
    for (let i = 0; i < 8; i++) await enqueue(db(), { kind: "spin_test", payload: {} });
    const worker = createWorker({ registry: createRegistry([spin]), concurrency: 4, leaseMs: 20_000, idleMs: 20 });
    worker.start();
    setTimeout(() => {
      timerAfter = calls;
      enough();
    }, 20);
    await done;
    await worker.stop(0);
    await db().queueItem.deleteMany({ where: { kind: "spin_test" } });
    expect(timerAfter, "a 20 ms timer fired before the items had gone round 400 times").not.toBeNull();
    expect(calls).toBeGreaterThan(0);
  });

  it("runs 24 items at once without Node warning of a listener leak on its shutdown signal", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    let running = 0;
    let all = () => {};
    const together = new Promise<void>((resolve) => (all = resolve));
    const wait = defineKind({
      name: "wait_test",
      schema: z.object({}),
      handle: async () => {
        if (++running === 24) all();
        await together;
      },
    });
    for (let i = 0; i < 24; i++) await enqueue(db(), { kind: "wait_test", payload: {} });
    const worker = createWorker({ registry: createRegistry([wait]), concurrency: 24, leaseMs: 20_000, idleMs: 20 });
    try {
      await worker.drain();
    } finally {
      process.off("warning", onWarning);
    }
    expect(running).toBe(24);
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });
});
