// The logs stay bounded: rows past their retention are deleted (in batches, so the receiver never
// waits long behind one big delete), newer rows stay, and the server prunes at start.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { pruneHistory } from "@/lib/worker/retention";
import { createTestDb, type TestDb } from "./db";
import { openSql, type TestSql } from "./sql";
import { startTally } from "./tally-server";

const DAY = 86_400_000;
let t: TestDb;
let sql: TestSql;
beforeAll(async () => {
  // The defaults: 14 days for the inbound log, 30 for the platform mirror and the API call counts.
  t = await createTestDb();
  sql = await openSql(t.url);
});
afterAll(async () => {
  await sql?.close();
  await t?.cleanup();
});
beforeEach(async () => {
  for (const table of ["InboundDelivery", "PlatformDelivery", "ApiCallMinute", "QueueItem"])
    await sql.run(`DELETE FROM "${table}"`);
});

const count = (table: string) => sql.count(`"${table}"`);

async function seed(now: number, ages: { inbound: number[]; mirror: number[]; calls: number[] }) {
  const ago = (days: number) => new Date(now - days * DAY);
  await sql.run("BEGIN");
  for (const days of ages.inbound) {
    await sql.run(
      `INSERT INTO "InboundDelivery" ("receivedAt", "status", "reason", "latencyMs", "bodyBytes") VALUES (?, 401, 'x', 1, 0)`,
      ago(days),
    );
  }
  for (const [i, days] of ages.mirror.entries()) {
    await sql.run(
      `INSERT INTO "PlatformDelivery" ("id", "webhookId", "status", "createdAt", "syncedAt") VALUES (?, 'wh', 'failed', ?, ?)`,
      `pd-${i}`,
      ago(days),
      ago(0),
    );
  }
  for (const [i, days] of ages.calls.entries())
    await sql.run(`INSERT INTO "ApiCallMinute" ("minute", "endpoint", "count") VALUES (?, ?, 1)`, ago(days), `e${i}`);
  await sql.run("COMMIT");
}

describe("retention", () => {
  it("deletes each log's rows past its retention, in batches, and keeps the rest", async () => {
    const now = Date.now();
    await seed(now, {
      inbound: [...Array(2_500).fill(15), ...Array(40).fill(13.9), 0],
      mirror: [31, 45, 29, 1],
      calls: [31, 30.01, 2],
    });
    const deleted = await pruneHistory({ now: new Date(now), batch: 1_000, pauseMs: 0 });
    expect(deleted).toEqual({
      "inbound deliveries": 2_500,
      "platform delivery mirror": 2,
      "API calls per minute": 2,
      "alert history": 0,
      "finished queue items": 0,
      "outbound attempts": 0,
      "finished outbound deliveries": 0,
      "ended sessions": 0,
      "result bodies": 0,
      "collection run bodies": 0,
    });
    expect(await Promise.all(["InboundDelivery", "PlatformDelivery", "ApiCallMinute"].map(count))).toEqual([41, 2, 1]);
    expect(await db().inboundDelivery.count({ where: { receivedAt: { lt: new Date(now - 14 * DAY) } } })).toBe(0);
    // Nothing left to do: a second run deletes nothing.
    expect(Object.values(await pruneHistory({ now: new Date(now) }))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it("deletes alert history (with its notifications) past the history retention; a rule's state stays", async () => {
    const now = Date.now();
    const at = (days: number) => new Date(now - days * DAY);
    for (const [days, rule] of [
      [31, "old"],
      [29, "recent"],
    ] as const) {
      await db().alertEvent.create({
        data: {
          rule,
          state: "firing",
          summary: rule,
          details: "{}",
          startedAt: at(days),
          at: at(days),
          notifications: { create: [{ channel: "webhook", status: "sent" }] },
        },
      });
    }
    await db().alertState.create({ data: { rule: "dead_letters", state: "firing", since: at(60) } });
    const deleted = await pruneHistory({ now: new Date(now) });
    expect(deleted).toMatchObject({ "alert history": 1 });
    expect((await db().alertEvent.findMany()).map((e) => e.rule)).toEqual(["recent"]);
    expect(await db().alertNotification.count()).toBe(1);
    expect(await db().alertState.count()).toBe(1);
  });

  it("deletes finished queue items past the history retention, never dead or live ones", async () => {
    const now = Date.now();
    const item = (...args: unknown[]) =>
      sql.run(
        `INSERT INTO "QueueItem" ("kind", "payload", "jobId", "state", "availableAt", "doneAt", "createdAt", "updatedAt") VALUES ('process_job', '{}', ?, ?, ?, ?, ?, ?)`,
        ...args,
      );
    const at = (days: number) => new Date(now - days * DAY);
    const rows: Array<[string, string, number, number | null]> = [
      ["old-done", "done", 40, 39],
      ["old-done-2", "done", 31, 31],
      ["done-lately", "done", 40, 2], // waited out a long backoff; finished recently
      ["recent-done", "done", 3, 3],
      ["old-dead", "dead", 40, 39],
      ["old-ready", "ready", 40, null],
      ["old-leased", "leased", 40, null],
    ];
    for (const [jobId, state, made, done] of rows)
      await item(jobId, state, at(made), done === null ? null : at(done), at(made), at(made));
    const deleted = await pruneHistory({ now: new Date(now) });
    expect(deleted["finished queue items"]).toBe(2);
    const left = (await sql.all<{ jobId: string }>(`SELECT "jobId" FROM "QueueItem" ORDER BY "jobId"`)).map(
      (r) => r.jobId,
    );
    expect(left).toEqual(["done-lately", "old-dead", "old-leased", "old-ready", "recent-done"]);
  });

  it("runs when the server starts", async () => {
    await seed(Date.now(), { inbound: [20, 20, 1], mirror: [40], calls: [] });
    const tally = await startTally(
      { GEONODE_SCRAPER_API_KEY: "k", SCRAPER_API_BASE_URL: "http://127.0.0.1:9", TALLY_WORKER: "off" },
      t.url,
    );
    try {
      const left = () => Promise.all(["InboundDelivery", "PlatformDelivery"].map(count));
      for (let i = 0; i < 100 && (await left()).reduce((a, b) => a + b) > 1; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(await left()).toEqual([1, 0]);
    } finally {
      await tally.stop();
    }
  });

  it("deletes sessions that ended before the history retention, never live ones", async () => {
    const now = Date.now();
    await db().user.create({
      data: { id: "u-ret", email: "ret@example.com", name: "Ret", role: "viewer", passwordHash: "$argon2id$x" },
    });
    const at = (days: number) => new Date(now - days * DAY);
    await db().session.createMany({
      data: [
        {
          id: "old-ended",
          userId: "u-ret",
          clientAddress: "x",
          createdAt: at(40),
          lastSeenAt: at(40),
          expiresAt: at(39),
        },
        {
          id: "old-revoked",
          userId: "u-ret",
          clientAddress: "x",
          createdAt: at(40),
          lastSeenAt: at(40),
          expiresAt: at(31),
          revokedAt: at(40),
        },
        // created long ago but still live (a long TTL): kept
        {
          id: "old-live",
          userId: "u-ret",
          clientAddress: "x",
          createdAt: at(40),
          lastSeenAt: at(1),
          expiresAt: new Date(now + DAY),
        },
        {
          id: "recent-ended",
          userId: "u-ret",
          clientAddress: "x",
          createdAt: at(2),
          lastSeenAt: at(2),
          expiresAt: at(1),
        },
      ],
    });
    expect(await pruneHistory({ now: new Date(now) })).toMatchObject({ "ended sessions": 2 });
    expect((await db().session.findMany({ orderBy: { id: "asc" } })).map((s) => s.id)).toEqual([
      "old-live",
      "recent-ended",
    ]);
  });
});
