// Operation runs: single-flight by lock key (also against a row another process wrote), stale-run
// takeover, and runs that end as succeeded or failed with their summary.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { abandonStaleRuns, finishRun, launchRun, RunFailed, startRun, waitForRun } from "@/lib/operations";
import { createTestDb, type TestDb } from "./db";
import { openSql } from "./sql";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t?.cleanup());

describe("operation runs", () => {
  it("starts one run for many concurrent starts with the same lock key", async () => {
    const starts = await Promise.all(
      Array.from({ length: 8 }, () => startRun({ kind: "reconcile", lockKey: "k1", startedBy: "test" })),
    );
    expect(new Set(starts.map((s) => s.runId)).size).toBe(1);
    expect(starts.filter((s) => s.created)).toHaveLength(1);
    await finishRun(starts[0].runId, { state: "succeeded", summary: { n: 1 } });
    const next = await startRun({ kind: "reconcile", lockKey: "k1", startedBy: "test" });
    expect(next.created).toBe(true);
    expect(next.runId).not.toBe(starts[0].runId);
    await finishRun(next.runId, { state: "succeeded" });
  });

  it("joins a run another process started (the unique lock key is in the database)", async () => {
    const other = await openSql(t.url);
    const now = new Date();
    await other.run(
      `INSERT INTO OperationRun (id, kind, state, lockKey, startedBy, startedAt, heartbeatAt) VALUES ('other-proc', 'reconcile', 'running', 'k2', 'cron', ?, ?)`,
      now,
      now,
    );
    await other.close();
    expect(await startRun({ kind: "reconcile", lockKey: "k2", startedBy: "test" })).toEqual({
      runId: "other-proc",
      created: false,
    });
  });

  it("takes over a run whose heartbeat is stale (its process died)", async () => {
    const first = await startRun({ kind: "replay", lockKey: "k3", startedBy: "test" });
    await db().operationRun.update({
      where: { id: first.runId },
      data: { heartbeatAt: new Date(Date.now() - 120_000) },
    });
    const second = await startRun({ kind: "replay", lockKey: "k3", startedBy: "test" });
    expect(second.created).toBe(true);
    const dead = await db().operationRun.findUniqueOrThrow({ where: { id: first.runId } });
    expect(dead).toMatchObject({ state: "failed", lockKey: null });
    expect(dead.error).toMatch(/abandoned: no heartbeat/);
    expect(await finishRun(first.runId, { state: "succeeded" })).toBe(false);
  });

  it("ends the runs whose process stopped, each once however many processes sweep, and no live one", async () => {
    const stale = await startRun({ kind: "rotate", lockKey: "k4", startedBy: "test" });
    const live = await startRun({ kind: "replay", lockKey: "k5", startedBy: "test" });
    await db().operationRun.update({
      where: { id: stale.runId },
      data: { heartbeatAt: new Date(Date.now() - 20_000) },
    });
    // Too young for the default minute; old enough for a rotation's 15 s.
    expect(await abandonStaleRuns({})).toEqual([]);
    const sweeps = await Promise.all(
      Array.from({ length: 4 }, () => abandonStaleRuns({ kind: "rotate", staleAfterMs: 15_000 })),
    );
    expect(sweeps.flat().map((r) => r.id)).toEqual([stale.runId]);
    expect(await db().operationRun.findUniqueOrThrow({ where: { id: stale.runId } })).toMatchObject({
      state: "failed",
      lockKey: null,
    });
    expect(await db().operationRun.findUniqueOrThrow({ where: { id: live.runId } })).toMatchObject({
      state: "running",
      lockKey: "k5",
    });
    await finishRun(live.runId, { state: "succeeded" });
  });

  it("records progress, the summary, and failures with what was counted so far", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => (open = r));
    const ok = await launchRun({ kind: "reconcile", lockKey: "k4", startedBy: "test" }, async (ctx) => {
      await ctx.progress({ listed: 5 });
      await gate;
      return { listed: 10 };
    });
    const joined = await launchRun({ kind: "reconcile", lockKey: "k4", startedBy: "test" }, async () => ({}));
    expect(joined).toMatchObject({ runId: ok.runId, created: false });
    open();
    // finished: progress is the final state (the summary), not the last count reported on the way
    expect(await ok.done).toMatchObject({
      state: "succeeded",
      progress: { listed: 10 },
      summary: { listed: 10 },
      error: null,
    });
    expect((await joined.done).state).toBe("succeeded");

    const bad = await launchRun({ kind: "replay", lockKey: "k5", startedBy: "test" }, async () => {
      throw new RunFailed("the platform has no delivery log for this webhook (404)", { pages: 0 });
    });
    const end = await waitForRun(bad.runId);
    expect(end).toMatchObject({
      state: "failed",
      summary: { pages: 0 },
      error: "the platform has no delivery log for this webhook (404)",
    });
    const row = await db().operationRun.findUniqueOrThrow({ where: { id: bad.runId } });
    expect(row.lockKey).toBeNull();
  });
});
