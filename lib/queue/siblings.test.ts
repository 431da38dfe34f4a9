// Claiming named items beside a worker's claim (lib/queue/siblings.ts), on both stores: only items of
// the kind that are ready and due or whose lease expired; never one leased by someone else, never one
// whose attempts are used up; two claims at once never share an item; settled together or lost.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestDb, type TestDb } from "@/test/db";
import { ack, ackAll, claim, claimByDedupeKeys, enqueueMany, releaseAll, rescheduleAll } from "./index";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ TALLY_QUEUE_MAX_ATTEMPTS: "3" });
});
afterAll(() => t?.cleanup());
beforeEach(async () => {
  await db().queueItem.deleteMany();
});

const later = (ms: number) => new Date(Date.now() + ms);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const keys = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `fwd:${from + i}`);
const items = (ks: string[], kind = "fwd") => ks.map((dedupeKey) => ({ kind, payload: { dedupeKey }, dedupeKey }));
const keyed = async () =>
  new Map((await db().queueItem.findMany()).map((r) => [r.dedupeKey ?? `#${r.id}`, r] as const));

describe("claimByDedupeKeys", () => {
  it("takes the named items that are due, of its kind only, the lowest ids first, up to the limit", async () => {
    await enqueueMany(db(), items(keys(6)));
    await enqueueMany(db(), [
      { kind: "fwd", payload: {}, dedupeKey: "fwd:later", availableAt: later(60_000) },
      { kind: "other", payload: {}, dedupeKey: "other:0" },
    ]);
    const named = [...keys(6), "fwd:later", "other:0", "fwd:nowhere"];
    const got = await claimByDedupeKeys({ kind: "fwd", dedupeKeys: named, owner: "batch", limit: 4, leaseMs: 5_000 });
    expect(got.map((i) => i.dedupeKey)).toEqual(keys(4));
    expect(new Set(got.map((i) => i.leaseOwner)).size).toBe(1);
    expect(got.every((i) => i.attempts === 1 && i.leaseOwner.startsWith("batch:"))).toBe(true);
    const rest = await claimByDedupeKeys({ kind: "fwd", dedupeKeys: named, owner: "batch", limit: 10, leaseMs: 5_000 });
    // Not the future one, not the other kind's, not the four already leased.
    expect(rest.map((i) => i.dedupeKey)).toEqual(keys(2, 4));
    const rows = await keyed();
    expect(rows.get("fwd:later")?.state).toBe("ready");
    expect(rows.get("other:0")?.state).toBe("ready");
  });

  it("never takes an item leased by someone else, and takes it once that lease has expired", async () => {
    await enqueueMany(db(), items(keys(3)));
    const [held] = await claim({ owner: "worker", limit: 1, leaseMs: 300 });
    expect(held.dedupeKey).toBe("fwd:0");
    const got = await claimByDedupeKeys({
      kind: "fwd",
      dedupeKeys: keys(3),
      owner: "batch",
      limit: 10,
      leaseMs: 5_000,
    });
    expect(got.map((i) => i.dedupeKey)).toEqual(["fwd:1", "fwd:2"]);
    // The batch's own leases are not expired either: a second batch finds nothing.
    expect(
      await claimByDedupeKeys({ kind: "fwd", dedupeKeys: keys(3), owner: "other", limit: 10, leaseMs: 5_000 }),
    ).toEqual([]);
    await sleep(350);
    const [taken] = await claimByDedupeKeys({
      kind: "fwd",
      dedupeKeys: keys(3),
      owner: "batch",
      limit: 10,
      leaseMs: 5_000,
    });
    expect(taken).toMatchObject({ id: held.id, attempts: 2 });
    // The first holder's lease is fenced: its ack changes nothing.
    expect(await ack(held)).toBe(false);
  });

  it("leaves an item whose attempts are used up to the worker, which dead-letters it", async () => {
    await enqueueMany(db(), items(keys(1)));
    for (let i = 0; i < 3; i++) await claim({ owner: "crashing", limit: 1, leaseMs: 1, now: later(i * 10) });
    expect((await keyed()).get("fwd:0")?.attempts).toBe(3);
    expect(
      await claimByDedupeKeys({
        kind: "fwd",
        dedupeKeys: keys(1),
        owner: "batch",
        limit: 1,
        leaseMs: 5_000,
        now: later(1_000),
      }),
    ).toEqual([]);
  });

  it("hands each item to one of several claims running at once", async () => {
    await enqueueMany(db(), items(keys(80)));
    const claims = await Promise.all(
      [0, 1, 2].map((i) =>
        claimByDedupeKeys({ kind: "fwd", dedupeKeys: keys(80), owner: `batch-${i}`, limit: 40, leaseMs: 5_000 }),
      ),
    );
    const ids = claims.flat().map((i) => i.id);
    expect(ids).toHaveLength(80);
    expect(new Set(ids).size).toBe(80);
  });
});

describe("ackAll, rescheduleAll and releaseAll", () => {
  it("give a claim's items back later or now without spending their attempts", async () => {
    await enqueueMany(db(), items(keys(3)));
    const got = await claimByDedupeKeys({ kind: "fwd", dedupeKeys: keys(3), owner: "batch", limit: 3, leaseMs: 5_000 });
    expect(await rescheduleAll(got.slice(0, 2), 60_000)).toEqual([got[0].id, got[1].id]);
    const rows = await keyed();
    expect(rows.get("fwd:0")).toMatchObject({ state: "ready", attempts: 0, leaseOwner: null });
    expect(rows.get("fwd:1")?.availableAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    // Not due: neither a worker nor a batch takes them; the third is still the batch's.
    expect(await claim({ owner: "w", limit: 10, leaseMs: 1_000 })).toEqual([]);
    expect(await rescheduleAll(got.slice(0, 2), 0)).toEqual([]);
  });

  it("settle the items still held and leave an item whose lease was lost to its new holder", async () => {
    await enqueueMany(db(), items(keys(4)));
    const got = await claimByDedupeKeys({ kind: "fwd", dedupeKeys: keys(4), owner: "batch", limit: 4, leaseMs: 200 });
    await sleep(250);
    // fwd:3's lease expired and a worker took it.
    const [stolen] = await claimByDedupeKeys({
      kind: "fwd",
      dedupeKeys: ["fwd:3"],
      owner: "worker",
      limit: 1,
      leaseMs: 5_000,
    });
    expect(stolen.dedupeKey).toBe("fwd:3");
    expect(await releaseAll(got.slice(0, 1))).toEqual([got[0].id]);
    expect(await ackAll(got.slice(1))).toEqual([got[1].id, got[2].id]);
    const rows = await keyed();
    expect(rows.get("fwd:0")).toMatchObject({ state: "ready", attempts: 0, leaseOwner: null });
    const done = (await db().queueItem.findMany({ where: { state: "done" } })).map((r) => r.id).sort();
    expect(done).toEqual([got[1].id, got[2].id].sort());
    // Done frees the dedupe key; the stolen item is still its new holder's.
    expect(rows.get("fwd:3")).toMatchObject({ state: "leased", leaseOwner: stolen.leaseOwner });
    expect(await enqueueMany(db(), items(["fwd:1", "fwd:3"]))).toBe(1);
  });
});
