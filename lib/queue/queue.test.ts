// The durable queue on a real SQLite database: enqueue and dedupe, claim/ack, retry with backoff,
// dead letters, reschedule, expired leases, bad payloads, and several processes claiming at once.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { db, dialect } from "@/lib/db";
import { createTestDb, type TestDb } from "@/test/db";
import {
  ack,
  ackMany,
  backoffMs,
  claim,
  createAckBatch,
  createRegistry,
  defineKind,
  enqueue,
  enqueueMany,
  extendLease,
  queueStats,
  reschedule,
  retry,
  runItem,
} from "./index";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ TALLY_QUEUE_MAX_ATTEMPTS: "3" });
});
afterAll(() => t?.cleanup());
beforeEach(async () => {
  await db().queueItem.deleteMany();
  await db().deadLetter.deleteMany();
});

const later = (ms: number) => new Date(Date.now() + ms);
const row = (id: number) => db().queueItem.findUniqueOrThrow({ where: { id } });

describe("enqueue", () => {
  it("keeps one live item per dedupe key and frees the key once the item is done", async () => {
    expect(await enqueue(db(), { kind: "k", payload: { n: 1 }, dedupeKey: "job:a", jobId: "a" })).toBe(true);
    expect(await enqueue(db(), { kind: "k", payload: { n: 2 }, dedupeKey: "job:a", jobId: "a" })).toBe(false);
    const [item] = await claim({ owner: "w", limit: 10, leaseMs: 1000 });
    // Leased is still live: no second item.
    expect(await enqueue(db(), { kind: "k", payload: {}, dedupeKey: "job:a" })).toBe(false);
    expect(await ack(item)).toBe(true);
    expect(await row(item.id)).toMatchObject({ state: "done", dedupeKey: null, leaseOwner: null });
    expect(await enqueue(db(), { kind: "k", payload: {}, dedupeKey: "job:a" })).toBe(true);
  });

  it("enqueues inside the caller's transaction (rolled back with it) and in sets", async () => {
    await expect(
      db().$transaction(async (tx) => {
        await enqueue(tx, { kind: "k", payload: {}, dedupeKey: "tx" });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await db().queueItem.count()).toBe(0);
    const items = Array.from({ length: 250 }, (_, i) => ({ kind: "k", payload: { i }, dedupeKey: `job:${i % 200}` }));
    expect(await enqueueMany(db(), items)).toBe(200);
    expect(await enqueueMany(db(), items.slice(0, 10))).toBe(0);
    expect((await queueStats()).byState.ready).toBe(200);
  });
});

describe("claim, retry, dead letter", () => {
  it("claims due items once, counts the attempt, and skips items not yet due", async () => {
    await enqueue(db(), { kind: "k", payload: {}, jobId: "j1" });
    await enqueue(db(), { kind: "k", payload: {}, availableAt: later(60_000) });
    const first = await claim({ owner: "w", limit: 10, leaseMs: 1000 });
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ kind: "k", jobId: "j1", attempts: 1, maxAttempts: 3 });
    expect(await claim({ owner: "w", limit: 10, leaseMs: 1000 })).toHaveLength(0);
    const stats = await queueStats();
    expect(stats.byState).toMatchObject({ ready: 1, leased: 1 });
    expect(stats.dueNow).toBe(0);
  });

  it("on PostgreSQL reads the head of each item's Job row in the same statement; on SQLite leaves it to the handler", async () => {
    await db().job.create({ data: { id: "head-1", kind: "extract", url: "https://example.com/h" } });
    await enqueue(db(), { kind: "k", payload: {}, jobId: "head-1" });
    await enqueue(db(), { kind: "k", payload: {}, jobId: "no-row-yet" });
    await enqueue(db(), { kind: "k", payload: {} });
    const items = await claim({ owner: "w", limit: 10, leaseMs: 1000 });
    const byJob = new Map(items.map((i) => [i.jobId, i.job]));
    if (dialect() === "postgres") {
      expect(byJob.get("head-1")).toEqual({ kind: "extract", outcome: "pending", url: "https://example.com/h" });
      expect(byJob.get("no-row-yet")).toBeNull();
      expect(byJob.get(null)).toBeNull();
    } else {
      expect([...byJob.values()]).toEqual([undefined, undefined, undefined]);
    }
    // Inside a caller's transaction the claim is the same statement through the ORM.
    await enqueue(db(), { kind: "k", payload: {}, jobId: "head-1" });
    const [inTx] = await db().$transaction((tx) => claim({ owner: "w", limit: 1, leaseMs: 1000 }, tx));
    expect(inTx.job).toEqual(dialect() === "postgres" ? expect.objectContaining({ kind: "extract" }) : undefined);
    await db().job.delete({ where: { id: "head-1" } });
  });

  it("never leases more items than asked for, however many are due", async () => {
    for (let i = 0; i < 5; i++) await enqueue(db(), { kind: "k", payload: { i } });
    for (const limit of [2, 1, 2]) {
      const taken = await claim({ owner: "w", limit, leaseMs: 60_000 });
      expect(taken).toHaveLength(limit);
    }
    expect((await queueStats()).byState).toMatchObject({ ready: 0, leased: 5 });
    expect(await claim({ owner: "w", limit: 2, leaseMs: 60_000 })).toHaveLength(0);
  });

  it("retries with a growing, jittered backoff and dead-letters after maxAttempts", async () => {
    await enqueue(db(), { kind: "k", payload: {}, jobId: "j2", dedupeKey: "job:j2" });
    let now = new Date();
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [item] = await claim({ owner: "w", limit: 1, leaseMs: 1000, now });
      expect(item.attempts).toBe(attempt);
      const before = Date.now();
      const outcome = await retry(item, new Error(`boom ${attempt}`));
      const after = Date.now();
      if (attempt < 3) {
        expect(outcome).toBe("retried");
        const r = await row(item.id);
        expect(r).toMatchObject({ state: "ready", lastError: `boom ${attempt}`, leaseOwner: null });
        // The backoff counts from a moment inside retry(): between `before` and `after`, however slow the machine.
        expect(r.availableAt.getTime() - before).toBeGreaterThanOrEqual(backoffMs(attempt, 1000, 300_000, () => 0));
        expect(r.availableAt.getTime() - after).toBeLessThanOrEqual(backoffMs(attempt, 1000, 300_000, () => 1));
        now = new Date(r.availableAt.getTime() + 1);
      } else {
        expect(outcome).toBe("dead");
        expect(await row(item.id)).toMatchObject({ state: "dead", dedupeKey: null });
      }
    }
    const dl = await db().deadLetter.findMany();
    expect(dl).toHaveLength(1);
    expect(dl[0]).toMatchObject({ jobId: "j2", kind: "k", attempts: 3, state: "open" });
    expect(dl[0].errorMessage).toContain("boom 3");
    // The key is free again: a later event for the same job can be queued.
    expect(await enqueue(db(), { kind: "k", payload: {}, dedupeKey: "job:j2" })).toBe(true);
  });

  it("backoff doubles up to the cap and is never zero", () => {
    expect(backoffMs(1, 1000, 60_000, () => 0)).toBe(500);
    expect(backoffMs(3, 1000, 60_000, () => 1)).toBe(4000);
    expect(backoffMs(30, 1000, 60_000, () => 1)).toBe(60_000);
  });

  it("reschedule does not use up attempts", async () => {
    await enqueue(db(), { kind: "k", payload: {} });
    let now = new Date();
    for (let i = 0; i < 5; i++) {
      const [item] = await claim({ owner: "w", limit: 1, leaseMs: 1000, now });
      expect(item.attempts).toBe(1);
      expect(await reschedule(item, 100)).toBe(true);
      now = new Date(Date.now() + 200);
    }
    expect(await db().queueItem.findFirstOrThrow()).toMatchObject({ state: "ready", attempts: 0 });
  });

  it("an expired lease is claimed again, and the first owner can no longer settle it", async () => {
    await enqueue(db(), { kind: "k", payload: {} });
    const [a] = await claim({ owner: "crashed", limit: 1, leaseMs: 1000 });
    expect(await claim({ owner: "other", limit: 1, leaseMs: 1000 })).toHaveLength(0);
    // A claim that does not look for expired leases (a worker's, most of the time) leaves it.
    expect(await claim({ owner: "other", limit: 1, leaseMs: 1000, now: later(1500), expired: false })).toHaveLength(0);
    const [b] = await claim({ owner: "other", limit: 1, leaseMs: 1000, now: later(1500) });
    expect(b.id).toBe(a.id);
    expect(b.attempts).toBe(2);
    expect(b.leaseOwner).not.toBe(a.leaseOwner);
    expect(await ack(a)).toBe(false);
    expect(await retry(a, new Error("late"))).toBe("lost");
    expect(await ack(b)).toBe(true);
  });

  it("acks many items in one statement, each only by its own lease owner", async () => {
    await enqueueMany(
      db(),
      Array.from({ length: 5 }, (_, i) => ({ kind: "k", payload: { i }, dedupeKey: `many:${i}` })),
    );
    const first = await claim({ owner: "w", limit: 3, leaseMs: 1000 });
    const second = await claim({ owner: "w", limit: 2, leaseMs: 1000 });
    // One of the first claim's items expired and went to another worker; one was settled meanwhile.
    const [taken] = await claim({ owner: "other", limit: 1, leaseMs: 1000, now: later(1500) });
    expect(taken.id).toBe(first[0].id);
    expect(await retry(first[1], new Error("failed"))).toBe("retried");
    const acked = await ackMany([...first, ...second]);
    expect([...acked].sort((a, b) => a - b)).toEqual([first[2].id, ...second.map((i) => i.id)]);
    expect(await row(taken.id)).toMatchObject({ state: "leased", leaseOwner: taken.leaseOwner });
    expect(await row(first[1].id)).toMatchObject({ state: "ready", leaseOwner: null });
    for (const i of [first[2], ...second])
      expect(await row(i.id)).toMatchObject({ state: "done", dedupeKey: null, leaseOwner: null });
    expect(await ackMany([])).toEqual(new Set());
  });

  it("a worker's ack batch answers each ack: true once committed, false when the lease was lost", async () => {
    await enqueueMany(
      db(),
      Array.from({ length: 4 }, (_, i) => ({ kind: "k", payload: { i } })),
    );
    const items = await claim({ owner: "w", limit: 4, leaseMs: 1000 });
    await db().queueItem.update({ where: { id: items[3].id }, data: { leaseOwner: "b:taken" } });
    const batch = createAckBatch();
    expect(await Promise.all(items.map((i) => batch.ack(i)))).toEqual([true, true, true, false]);
    expect((await queueStats()).byState).toMatchObject({ done: 3, leased: 1 });
    // Acks that arrive while a statement is in flight go in the next one.
    await enqueue(db(), { kind: "k", payload: {} });
    const [late] = await claim({ owner: "w", limit: 1, leaseMs: 1000 });
    expect(await batch.ack(late)).toBe(true);
  });
});

describe("registry and runItem", () => {
  const seen: string[] = [];
  const registry = createRegistry([
    defineKind({
      name: "greet",
      schema: z.object({ name: z.string() }),
      handle: async (p) => {
        seen.push(p.name);
      },
    }),
  ]);

  it("parses the payload, runs the handler and acks", async () => {
    await enqueue(db(), { kind: "greet", payload: { name: "ada" } });
    const [item] = await claim({ owner: "w", limit: 1, leaseMs: 1000 });
    expect(await runItem(registry, item, { timeoutMs: 1000 })).toBe("acked");
    expect(seen).toEqual(["ada"]);
  });

  it("dead-letters a bad payload or an unknown kind instead of crashing", async () => {
    await enqueue(db(), { kind: "greet", payload: { name: 42 } });
    await enqueue(db(), { kind: "nobody", payload: {} });
    const items = await claim({ owner: "w", limit: 2, leaseMs: 1000 });
    expect(items.map((i) => i.kind).sort()).toEqual(["greet", "nobody"]);
    for (const item of items) expect(await runItem(registry, item, { timeoutMs: 1000 })).toBe("dead");
    const codes = (await db().deadLetter.findMany({ orderBy: { id: "asc" } })).map((d) => d.errorCode);
    expect(codes).toEqual(["BAD_PAYLOAD", "UNKNOWN_KIND"]);
  });
});

describe("heartbeat: an item may run longer than its lease", () => {
  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(new Error("aborted"));
      });
    });
  let runs = 0;
  const registry = createRegistry([
    defineKind({
      name: "slow",
      schema: z.object({ ms: z.number() }),
      handle: async (p, { signal }) => {
        runs++;
        await sleep(p.ms, signal);
      },
    }),
  ]);

  it("keeps the lease while the handler runs: no one else can claim it, and it is handled once", async () => {
    runs = 0;
    // The handler runs three leases long. A lease of 1 s renewed every 250 ms leaves a loaded machine
    // (a clean-clone CI run beside an image build) room for a late beat: 300 ms renewed every 80 ms
    // was lost there once.
    await enqueue(db(), { kind: "slow", payload: { ms: 3000 } });
    const [item] = await claim({ owner: "a", limit: 1, leaseMs: 1000 });
    const running = runItem(registry, item, { timeoutMs: 20_000, heartbeat: { leaseMs: 1000, everyMs: 250 } });
    // Another worker keeps trying for the whole run, well past the first lease's end.
    const stolen: number[] = [];
    const giveUpAt = Date.now() + 10_000;
    while ((await row(item.id)).state === "leased" && Date.now() < giveUpAt) {
      stolen.push(...(await claim({ owner: "b", limit: 1, leaseMs: 1000 })).map((i) => i.id));
      await sleep(50);
    }
    expect(await running).toBe("acked");
    expect(stolen).toEqual([]);
    expect(runs).toBe(1);
    expect(await row(item.id)).toMatchObject({ state: "done", attempts: 1 });
  });

  it("aborts the handler when the lease was taken over, and leaves the item to its new holder", async () => {
    runs = 0;
    await enqueue(db(), { kind: "slow", payload: { ms: 5000 } });
    const [item] = await claim({ owner: "a", limit: 1, leaseMs: 300 });
    const started = Date.now();
    const running = runItem(registry, item, { timeoutMs: 10_000, heartbeat: { leaseMs: 300, everyMs: 50 } });
    // As if this worker had stalled past its lease and another had claimed the item meanwhile.
    await db().queueItem.update({ where: { id: item.id }, data: { leaseOwner: "b:taken" } });
    expect(await running).toBe("lost");
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await row(item.id)).toMatchObject({ state: "leased", leaseOwner: "b:taken", attempts: 1 });
  });

  it("without renewal (a crashed worker), the item comes back once its lease runs out", async () => {
    await enqueue(db(), { kind: "slow", payload: { ms: 0 } });
    const [item] = await claim({ owner: "a", limit: 1, leaseMs: 200 });
    expect(await claim({ owner: "b", limit: 1, leaseMs: 200 })).toEqual([]);
    await sleep(250);
    const [again] = await claim({ owner: "b", limit: 1, leaseMs: 200 });
    expect(again).toMatchObject({ id: item.id, attempts: 2 });
    expect(await extendLease(item, 1000)).toBe(false);
  });
});

describe("several worker processes on one database", () => {
  it("never hand the same item to two of them", async () => {
    const N = 150;
    const racers = [0, 1].map(() => {
      const child = spawn("node_modules/.bin/tsx", ["--conditions=react-server", "lib/queue/claim-race.test-util.ts"], {
        env: { ...process.env, DATABASE_URL: t.url, NODE_ENV: "test" },
        stdio: ["ignore", "pipe", "inherit"],
      });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      const ready = new Promise<void>((resolve) => child.stdout.on("data", () => out.includes("ready") && resolve()));
      const done = new Promise<string>((resolve) => child.on("exit", () => resolve(out)));
      return { ready, done };
    });
    // Fill the queue only once both are connected, so they really race.
    await Promise.all(racers.map((r) => r.ready));
    await enqueueMany(
      db(),
      Array.from({ length: N }, (_, i) => ({ kind: "k", payload: { i } })),
    );
    const outputs = await Promise.all(racers.map((r) => r.done));
    const lists = outputs.map((o) => z.array(z.number()).parse(JSON.parse(o.trim().split("\n").at(-1) ?? "[]")));
    const all = lists.flat();
    expect(all).toHaveLength(N);
    expect(new Set(all).size).toBe(N);
    expect(await db().queueItem.count({ where: { state: "done" } })).toBe(N);
  });
});
