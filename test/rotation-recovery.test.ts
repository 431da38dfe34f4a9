// A rotation that loses the platform's answer (the only place the new secret ever appears) must not
// leave the platform signing with a secret nobody has. Against a real Tally (`npm start`, its own
// worker and schedules) and the simulator over real HTTP, through a proxy that can hold back or lose
// the answer to rotate-secret after the platform has rotated.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import type { TestDb } from "./db";
import {
  apiClient,
  outcomeEventsPerJob,
  outcomeOf,
  quiet,
  startTallyBehindProxy,
  type startProxy,
  waitRun,
} from "./safety-nets-harness";
import type { TallyServer } from "./tally-server";

let sim: Awaited<ReturnType<typeof startSim>>;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let t: TestDb;
let tally: TallyServer;
const api = apiClient(() => tally.url);
let extractSub = "";

beforeAll(async () => {
  // One delivery attempt: a 401 stays a 401 until something replays it.
  sim = await startSim({ config: { jobDurationMs: [20, 60], deliveryRetryScheduleMs: [0] } });
  // Its own worker and schedules on; only a replay can store a job whose webhook got a 401.
  ({ proxy, t, tally } = await startTallyBehindProxy(sim));
  const reg = await api("/api/subscriptions/register", { body: {} });
  expect(reg.status).toBe(200);
  extractSub = (reg.json.items as Array<{ id: string; eventType: string }>).find(
    (s) => s.eventType === "extract_completed",
  )!.id;
}, 60_000);

afterAll(async () => {
  await tally?.stop();
  await proxy?.close();
  await sim?.close();
  await t?.cleanup();
});

async function submit(n: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await api("/api/jobs", { body: { kind: "extract", url: `https://example.com/${tag}/${i}` } });
    expect(r.status).toBe(201);
    ids.push(String(r.json.jobId));
  }
  return ids;
}

/** Jobs submitted now are delivered, accepted, and stored once each. */
async function deliveriesVerify(tag: string) {
  const ids = await submit(3, tag);
  await quiet(sim, ids);
  const perJob = sim.sim.state().perJob;
  expect(ids.map((id) => perJob[id].lastHttpStatus)).toEqual([200, 200, 200]);
}

async function allStored(ids: string[], timeoutMs: number) {
  await waitFor(
    "every job stored",
    async () => [...(await outcomeOf(ids)).values()].filter((o) => o === "stored").length === ids.length,
    timeoutMs,
  );
  expect(await outcomeEventsPerJob(ids)).toEqual(ids.map(() => 1));
}

const rotateRuns = () =>
  db().operationRun.findMany({
    where: { kind: "rotate" },
    orderBy: { startedAt: "asc" },
    select: { id: true, state: true, error: true, summary: true, params: true, startedBy: true },
  });

describe("a rotation that loses the platform's answer", () => {
  it("answer lost once on the way: Tally asks again and stores the secret the platform signs with", async () => {
    const before = proxy.state.rotated;
    proxy.state.loseRotateAnswers = 1;
    const r = await api(`/api/subscriptions/${extractSub}/rotate`, { body: {} });
    expect(r.status).toBe(202);
    expect(proxy.state.rotated - before).toBe(2);
    expect((await waitRun(api, String(r.json.runId))).state).toBe("succeeded");
    await deliveriesVerify("lost-once");
  });

  it("answer lost every time: 502 saying the secret may have changed, then the schedule rotates again by itself", async () => {
    const before = proxy.state.rotated;
    proxy.state.loseRotateAnswers = 3;
    // Within a schedule tick (5 s) Tally rotates again; its answer is held here until the jobs below
    // are delivered, so the platform signs them with a secret Tally does not have yet: each gets 401.
    // The gate is set before the call: on a loaded machine that tick can come before the 502 reaches
    // this test (the three lost answers go out before the gate is looked at).
    let open = () => {};
    proxy.state.rotateGate = new Promise<void>((r) => (open = r));
    const r = await api(`/api/subscriptions/${extractSub}/rotate`, { body: {} });
    expect(r.status).toBe(502);
    expect(r.text).toContain("may have rotated the secret");
    // The call's three tries, and perhaps already the schedule's rotation (its answer held).
    expect(proxy.state.rotated - before).toBeGreaterThanOrEqual(3);
    expect(proxy.state.rotated - before).toBeLessThanOrEqual(4);
    await waitFor("the schedule to rotate again", () => proxy.state.rotated - before === 4, 15_000);
    const locked = await submit(3, "lost-always");
    await quiet(sim, locked);
    const perJob = sim.sim.state().perJob;
    expect(locked.map((id) => perJob[id].lastHttpStatus)).toEqual([401, 401, 401]);
    proxy.state.rotateGate = null;
    open();

    // The answer arrives: the secret is stored, then the 401s since the spike replayed and stored, once each.
    await allStored(locked, 30_000);
    expect(proxy.state.rotated - before).toBe(4);
    const runs = await rotateRuns();
    const [doubtful, again] = runs.slice(-2);
    expect(doubtful).toMatchObject({ state: "failed", startedBy: "token:env" });
    expect(doubtful.error).toContain("may have rotated the secret");
    expect(JSON.parse(doubtful.summary ?? "{}")).toMatchObject({ secretInDoubt: true, recoveredBy: again.id });
    expect(again).toMatchObject({ state: "succeeded", startedBy: `recovery of run ${doubtful.id}` });
    expect(JSON.parse(again.params ?? "{}")).toMatchObject({ recovers: doubtful.id });
    expect(JSON.parse(again.summary ?? "{}")).toMatchObject({ replay: { enqueued: 3 } });
    await deliveriesVerify("after-lost-always");
  });

  it(
    "Tally killed after the platform rotated and before the secret was stored: the run is ended, rotated again, its 401s replayed",
    { timeout: 90_000 },
    async () => {
      // The rotations above have ended (a recovery's replay may still run).
      await waitFor(
        "no rotation running",
        async () => (await rotateRuns()).every((r) => r.state !== "running"),
        15_000,
      );
      const before = proxy.state.rotated;
      proxy.state.rotateDelayMs = 60_000; // the platform rotates at once; its answer waits
      const pending = api(`/api/subscriptions/${extractSub}/rotate`, { body: {} }).catch(() => null);
      await waitFor("the platform to rotate", () => proxy.state.rotated > before, 10_000);
      const [interrupted] = await db().operationRun.findMany({
        where: { kind: "rotate", state: "running" },
        select: { id: true },
      });
      expect(interrupted).toBeDefined();
      await tally.kill("SIGKILL"); // and start again, as a supervisor would
      proxy.state.rotateDelayMs = 0;
      await pending;

      // A retry by the operator meanwhile follows the run that died rather than rotating twice.
      const retry = await api(`/api/subscriptions/${extractSub}/rotate`, { body: {} });
      expect(retry.json).toMatchObject({ runId: interrupted.id, alreadyRunning: true });

      const locked = await submit(4, "killed");
      await quiet(sim, locked);
      const perJob = sim.sim.state().perJob;
      expect(locked.map((id) => perJob[id].lastHttpStatus)).toEqual([401, 401, 401, 401]);

      // 15 s without a heartbeat, a tick of 5 s, the settle of 1 s, the replay.
      await allStored(locked, 45_000);
      expect(proxy.state.rotated - before).toBe(2);
      const run = (await rotateRuns()).find((r) => r.id === interrupted.id)!;
      expect(run.state).toBe("failed");
      expect(run.error).toContain("no heartbeat");
      const summary = JSON.parse(run.summary ?? "{}");
      expect(summary).toMatchObject({ secretInDoubt: true, recovery: "rotated_again" });
      const again = await db().operationRun.findUniqueOrThrow({ where: { id: String(summary.recoveredBy) } });
      expect(again).toMatchObject({ kind: "rotate", state: "succeeded" });
      expect(JSON.parse(again.summary ?? "{}")).toMatchObject({ replay: { enqueued: 4 } });
      expect(tally.output()).toContain("rotation recovered");
      await deliveriesVerify("after-kill");
    },
  );
});
