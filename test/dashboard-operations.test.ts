// The Operations page's history of runs and operator actions: keyset pages, durations, parsed
// progress and summary, the running count that drives the live refresh, and redacted audit details.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { historyQuerySchema } from "@/lib/operations/contracts";
import { listAuditPage } from "@/lib/audit/list";
import { listRuns, operationsPage } from "@/lib/operations/history";
import { db } from "@/lib/db";
import { createTestDb, type TestDb } from "./db";

let t: TestDb;
const T0 = Date.parse("2026-06-01T10:00:00.000Z");
const KINDS = ["reconcile", "replay", "rotate", "poll", "register"];

beforeAll(async () => {
  t = await createTestDb();
  await db().operationRun.createMany({
    data: Array.from({ length: 23 }, (_, i) => ({
      id: `run-${String(i).padStart(2, "0")}`,
      kind: KINDS[i % 5] ?? "reconcile",
      state: i === 22 ? "running" : i % 7 === 0 ? "failed" : "succeeded",
      startedBy: i % 2 ? "operator" : "schedule",
      // pairs share a start time, to exercise the tie on id
      startedAt: new Date(T0 + Math.floor(i / 2) * 60_000),
      finishedAt: i === 22 ? null : new Date(T0 + Math.floor(i / 2) * 60_000 + 1500 + i),
      progress: JSON.stringify({ listed: i * 10, alreadyDone: i, enqueued: 2, stillRunning: 1 }),
      summary: i === 3 ? "not json {" : JSON.stringify({ enqueued: 2 }),
      error: i % 7 === 0 ? "platform unreachable" : null,
      lockKey: i === 22 ? "reconcile" : null,
    })),
  });
  await db().auditLog.createMany({
    data: [
      {
        actor: "operator",
        action: "subscription.rotate",
        target: "sub-1",
        detail: JSON.stringify({ runId: "r1", secret: "whsec_should_not_leave_ABCD" }),
      },
      {
        actor: "operator",
        action: "simulator.configure",
        target: "simulator",
        detail: JSON.stringify({ webhookDropRate: 0.3 }),
      },
      { actor: "token", action: "operations.reconcile", target: null, detail: "x".repeat(1000), ok: false },
    ],
  });
});
afterAll(async () => t?.cleanup());

describe("run history", () => {
  it("pages newest first across ties, with durations and parsed progress", async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listRuns(historyQuerySchema.parse({ limit: 4, cursor }));
      ids.push(...page.items.map((r) => r.id));
      expect(page.running).toBe(1);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const expected = Array.from({ length: 23 }, (_, i) => i)
      .sort((a, b) => Math.floor(b / 2) - Math.floor(a / 2) || b - a)
      .map((i) => `run-${String(i).padStart(2, "0")}`);
    expect(ids).toEqual(expected);

    const first = (await listRuns(historyQuerySchema.parse({ limit: 2 }))).items;
    expect(first[0]).toMatchObject({
      id: "run-22",
      state: "running",
      finishedAt: null,
      durationMs: null,
      kind: "rotate",
    });
    expect(first[1]).toMatchObject({
      id: "run-21",
      state: "failed",
      error: "platform unreachable",
      durationMs: 1521,
      startedBy: "operator",
    });
    expect(first[1]?.progress).toEqual({ listed: 210, alreadyDone: 21, enqueued: 2, stillRunning: 1 });
  });

  it("filters by kind and keeps unreadable JSON as text", async () => {
    const page = await listRuns(historyQuerySchema.parse({ kind: "rotate", limit: 50 }));
    expect(page.items.map((r) => r.id)).toEqual(["run-22", "run-17", "run-12", "run-07", "run-02"]);
    const run3 = (await listRuns(historyQuerySchema.parse({ kind: "poll", limit: 50 }))).items.find(
      (r) => r.id === "run-03",
    );
    expect(run3?.summary).toBe("not json {");
    expect(historyQuerySchema.safeParse({ kind: "drop-tables" }).success).toBe(false);
  });
});

describe("audit log", () => {
  it("lists operator actions newest first, blanking secret-named fields and shortening long details", async () => {
    const page = await listAuditPage({ limit: 10 });
    expect(page.items.map((r) => r.action)).toEqual([
      "operations.reconcile",
      "simulator.configure",
      "subscription.rotate",
    ]);
    const serialized = JSON.stringify(page);
    expect(serialized).not.toContain("whsec_should_not_leave");
    expect(page.items[2]?.detail).toBe(JSON.stringify({ runId: "r1", secret: "[redacted]" }));
    expect(page.items[0]?.detail?.length).toBeLessThanOrEqual(301);
    expect(page.items[0]?.ok).toBe(false);
  });

  it("the page's first render holds both", async () => {
    const page = await operationsPage(5);
    expect(page.history.items).toHaveLength(5);
    expect(page.audit.items).toHaveLength(3);
  });
});
