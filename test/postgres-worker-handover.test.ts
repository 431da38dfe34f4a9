// Two `npm run worker` processes on one PostgreSQL database ("two machines"): the one holding an item
// is SIGKILLed while the platform is slow to answer it; its lease runs out and the other worker
// finishes the item, and the job's results and outcome are stored exactly once. Runs in the
// `postgres` vitest project.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { enqueue } from "@/lib/queue";
import { processJobItem } from "@/lib/jobs/process-job";
import { isTerminal } from "@/lib/platform";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { startWorkerProcess, type WorkerProc } from "../scripts/chaos/processes";
import { createTestDb, type TestDb } from "./db";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | null | false>,
  timeoutMs: number,
  output: () => string,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${output().slice(-4000)}`);
    await sleep(200);
  }
}

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;
const workers: WorkerProc[] = [];

beforeAll(async () => {
  sim = await startSim();
  t = await createTestDb();
  // The worker that holds the item renews its lease while the platform is slow; once it is dead,
  // the lease (5 s, the shortest allowed) runs out and the other worker claims the item.
  const env = {
    DATABASE_URL: t.url,
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_OPERATOR_PASSWORD: "handover operator password",
    TALLY_SESSION_SECRET: "handover-session-secret-0123456789abcdef0123",
    TALLY_SCHEDULER: "off",
    TALLY_LEASE_SECONDS: "5",
    TALLY_WORKER_CONCURRENCY: "2",
    TALLY_API_RPS: "1000",
    TALLY_LOG_LEVEL: "info",
  };
  workers.push(startWorkerProcess(env), startWorkerProcess(env));
  await waitFor(
    "both workers started",
    async () => workers.every((w) => w.output().includes("worker started")),
    120_000,
    () => workers.map((w) => w.output()).join("\n---\n"),
  );
}, 180_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop().catch(() => undefined)));
  await sim?.close();
  await t?.cleanup();
});

describe("a worker killed mid-item on one machine", () => {
  it(
    "is finished by the other: lease expired, claimed again, the result stored exactly once",
    { timeout: 240_000 },
    async () => {
      const output = () => workers.map((w, i) => `worker ${i + 1} (pid ${w.pid()}):\n${w.output()}`).join("\n---\n");
      const client = sim.client();
      const urls = ["https://handover.example/a", "https://handover.example/b", "https://handover.example/c"];
      const { job_id: jobId } = await client.submitBatch({ urls });
      await waitFor(
        "the batch job settled on the platform",
        async () => isTerminal((await client.getJob("batch", jobId)).status),
        30_000,
        output,
      );
      const settled = await client.getJob("batch", jobId);
      expect(settled.status).toBe("completed");

      // The next platform call (the holder's GET of the job) answers only after a minute.
      const faults = await sim.control("/_sim/config", { slowResponseMs: 60_000 });
      expect(faults.status).toBe(200);
      expect((await sim.control("/_sim/faults", { kind: "slow", count: 1 })).status).toBe(200);
      const before = sim.sim.apiCalls().length;
      await enqueue(db(), processJobItem({ jobId, eventType: "batch_completed", source: "webhook" }));

      // The holder, found by the queue item's lease owner (host:pid:…).
      const held = await waitFor(
        "a worker to claim the item",
        async () => (await db().queueItem.findFirst({ where: { jobId, state: "leased" } })) ?? null,
        60_000,
        output,
      );
      const holderPid = Number(held.leaseOwner?.split(":").at(-3));
      const holder = workers.find((w) => w.pid() === holderPid);
      const other = workers.find((w) => w.pid() !== holderPid);
      expect(
        holder,
        `lease owner ${held.leaseOwner} is one of the two workers (${workers.map((w) => w.pid()).join(", ")})`,
      ).toBeDefined();
      expect(held.attempts).toBe(1);
      // Mid-item: nothing stored yet, and the holder's call has not been answered (the simulator
      // records a call when it answers it).
      await sleep(1000);
      expect(await db().result.count({ where: { jobId } })).toBe(0);
      expect(sim.sim.apiCalls().length).toBe(before);

      await holder!.kill();
      const done = await waitFor(
        "the other worker to finish the item",
        async () => {
          const item = await db().queueItem.findUnique({ where: { id: held.id } });
          return item?.state === "done" ? item : null;
        },
        120_000,
        output,
      );
      expect(done.attempts).toBe(2);
      // …and it was the other one: the holder is dead, the other alive (signal 0 only checks).
      expect(() => process.kill(holderPid, 0)).toThrow();
      expect(() => process.kill(other!.pid()!, 0)).not.toThrow();

      const job = await db().job.findUniqueOrThrow({ where: { id: jobId } });
      expect(job.outcome).toBe("stored");
      const results = await db().result.findMany({ where: { jobId }, select: { url: true } });
      expect(results.map((r) => r.url).sort()).toEqual(urls);
      expect(await db().jobEvent.count({ where: { jobId, type: "outcome" } })).toBe(1);
      // The queue holds nothing else for the job: no second item, nothing leased.
      expect(await db().queueItem.count({ where: { jobId } })).toBe(1);
    },
  );
});
