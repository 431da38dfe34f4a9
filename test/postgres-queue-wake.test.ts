// Workers on PostgreSQL wake on an enqueue made on another connection (LISTEN/NOTIFY), not on their
// idle poll: the worker here polls once an hour, so an item it handles was announced to it. Runs in
// the `postgres` vitest project.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { createRegistry, defineKind, enqueue } from "@/lib/queue";
import { listenForEnqueues } from "@/lib/queue/wake";
import { waitFor } from "@/lib/simulator/test-harness.test-util";
import { createWorker, type Worker } from "@/lib/worker/worker";
import { createTestDb, type TestDb } from "./db";

const HOUR = 3_600_000;
let t: TestDb;
let worker: Worker;
let listener: ReturnType<typeof listenForEnqueues>;
const handled: string[] = [];

beforeAll(async () => {
  t = await createTestDb();
  const registry = createRegistry([
    defineKind({
      name: "note",
      schema: z.object({ text: z.string() }),
      handle: async (p) => void handled.push(p.text),
    }),
  ]);
  worker = createWorker({ registry, concurrency: 2, leaseMs: 30_000, idleMs: HOUR });
  listener = listenForEnqueues(t.url);
  await listener.ready;
  worker.start();
  // Let its first claim find nothing, so it sleeps for the hour.
  await new Promise((r) => setTimeout(r, 300));
});
afterAll(async () => {
  await worker?.stop(0);
  await listener?.stop();
  await t?.cleanup();
});

describe("queue wake-ups on PostgreSQL", () => {
  it("an item committed by another connection, with NOTIFY, is taken at once", async () => {
    const other = new pg.Client({ connectionString: t.url });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query(
        `INSERT INTO "QueueItem" ("kind","payload","state","attempts","maxAttempts","availableAt","createdAt","updatedAt")
         VALUES ('note', '{"text":"from another connection"}', 'ready', 0, 3, now() - interval '1 second', now(), now())`,
      );
      await other.query("SELECT pg_notify('tally_queue', '')");
      await other.query("COMMIT");
    } finally {
      await other.end();
    }
    await waitFor("the item handled", () => handled.includes("from another connection"), 20_000);
  });

  it("enqueue() announces its item when the caller's transaction commits", async () => {
    await db().$transaction(async (tx) => {
      await enqueue(tx, { kind: "note", payload: { text: "from enqueue" }, availableAt: new Date(Date.now() - 1000) });
    });
    await waitFor("the item handled", () => handled.includes("from enqueue"), 20_000);
    // The handler has run; its acknowledgement commits just after it.
    const done = () => db().queueItem.count({ where: { state: "done" } });
    await waitFor("both items acknowledged", async () => (await done()) === 2, 5_000);
    expect(await done()).toBe(2);
  });
});
