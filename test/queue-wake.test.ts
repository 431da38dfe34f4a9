// Where the receiver and a worker share a process, a committed delivery wakes the worker at once:
// the worker here polls once an hour, so a job it takes was handed to it by the receiver's wake-up.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { PROCESS_JOB, processJobPayload } from "@/lib/jobs/process-job";
import { createRegistry, defineKind } from "@/lib/queue";
import { waitFor } from "@/lib/simulator/test-harness.test-util";
import { receive } from "@/lib/webhooks/receive";
import { defaultHmacScheme, signDelivery } from "@/lib/signing/signature";
import { createWorker, type Worker } from "@/lib/worker/worker";
import { addSubscription, createTestDb, type TestDb } from "./db";
import { openSql } from "./sql";
import { envelope } from "./webhook-client";

const SECRET = "whsec_queue_wake_secret";
let t: TestDb;
let worker: Worker;
const taken: string[] = [];

beforeAll(async () => {
  t = await createTestDb();
  const sql = await openSql(t.url);
  await addSubscription(sql, "sub-wake", SECRET);
  await sql.close();
  // A stand-in for the job handler: records the job it was given.
  const registry = createRegistry([
    defineKind({ name: PROCESS_JOB, schema: processJobPayload, handle: async (p) => void taken.push(p.jobId) }),
  ]);
  worker = createWorker({ registry, concurrency: 1, leaseMs: 30_000, idleMs: 3_600_000 });
  worker.start();
  await new Promise((r) => setTimeout(r, 300)); // its first claim finds nothing: it sleeps for the hour
});
afterAll(async () => {
  await worker?.stop(0);
  await t?.cleanup();
});

describe("queue wake-ups in one process", () => {
  it("a delivery the receiver commits is taken by the sleeping worker", async () => {
    const body = new TextEncoder().encode(envelope("job-woken"));
    const headers = new Headers(
      signDelivery(defaultHmacScheme, SECRET, body, { id: "msg_1", timestamp: Date.now() / 1000 }),
    );
    const answer = await receive({
      subscriptionKey: "sub-wake",
      headers,
      read: { ok: true, body },
      startedAt: Date.now(),
    });
    expect(answer).toEqual({ status: 200, body: { status: "accepted" } });
    await waitFor("the job taken", () => taken.includes("job-woken"), 20_000);
    // The handler has run; its acknowledgement commits just after it.
    const item = () => db().queueItem.findFirst({ where: { jobId: "job-woken" } });
    await waitFor("the item acknowledged", async () => (await item())?.state === "done", 5_000);
    expect(await item()).toMatchObject({ state: "done" });
  });
});
