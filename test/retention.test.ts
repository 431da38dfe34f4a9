// The logs stay bounded: rows past their retention are deleted (in batches, so the receiver never
// waits long behind one big delete), newer rows stay, and the server prunes at start.
import Database from "better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { pruneHistory } from "@/lib/runtime/retention";
import { sqliteDate } from "@/lib/webhooks/store";
import { createTestDb, type TestDb } from "./db";
import { startTally } from "./tally-server";

const DAY = 86_400_000;
let t: TestDb;
let sql: Database.Database;
beforeAll(async () => {
  // The defaults: 14 days for the inbound log, 30 for the platform mirror and the API call counts.
  t = await createTestDb();
  sql = new Database(t.file);
});
afterAll(async () => {
  sql?.close();
  await t?.cleanup();
});
beforeEach(() => {
  for (const table of ["InboundDelivery", "PlatformDelivery", "ApiCallMinute", "QueueItem"]) sql.exec(`DELETE FROM "${table}"`);
});

const count = (table: string) => (sql.prepare(`SELECT COUNT(*) n FROM "${table}"`).get() as { n: number }).n;

function seed(now: number, ages: { inbound: number[]; mirror: number[]; calls: number[] }) {
  const inbound = sql.prepare(`INSERT INTO "InboundDelivery" ("receivedAt", "status", "reason", "latencyMs", "bodyBytes") VALUES (?, 401, 'x', 1, 0)`);
  const mirror = sql.prepare(`INSERT INTO "PlatformDelivery" ("id", "webhookId", "status", "createdAt", "syncedAt") VALUES (?, 'wh', 'failed', ?, ?)`);
  const calls = sql.prepare(`INSERT INTO "ApiCallMinute" ("minute", "endpoint", "count") VALUES (?, ?, 1)`);
  sql.transaction(() => {
    ages.inbound.forEach((days) => inbound.run(sqliteDate(new Date(now - days * DAY))));
    ages.mirror.forEach((days, i) => mirror.run(`pd-${i}`, sqliteDate(new Date(now - days * DAY)), sqliteDate(new Date(now))));
    ages.calls.forEach((days, i) => calls.run(sqliteDate(new Date(now - days * DAY)), `e${i}`));
  })();
}

describe("retention", () => {
  it("deletes each log's rows past its retention, in batches, and keeps the rest", async () => {
    const now = Date.now();
    seed(now, {
      inbound: [...Array(2_500).fill(15), ...Array(40).fill(13.9), 0],
      mirror: [31, 45, 29, 1],
      calls: [31, 30.01, 2],
    });
    const deleted = await pruneHistory({ now: new Date(now), batch: 1_000, pauseMs: 0 });
    expect(deleted).toEqual({ "inbound deliveries": 2_500, "platform delivery mirror": 2, "API calls per minute": 2, "finished queue items": 0, "outbound attempts": 0, "finished outbound deliveries": 0, "ended sessions": 0 });
    expect([count("InboundDelivery"), count("PlatformDelivery"), count("ApiCallMinute")]).toEqual([41, 2, 1]);
    expect(await db().inboundDelivery.count({ where: { receivedAt: { lt: new Date(now - 14 * DAY) } } })).toBe(0);
    // Nothing left to do: a second run deletes nothing.
    expect(Object.values(await pruneHistory({ now: new Date(now) }))).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it("deletes finished queue items past the history retention, never dead or live ones", async () => {
    const now = Date.now();
    const item = sql.prepare(
      `INSERT INTO "QueueItem" ("kind", "payload", "jobId", "state", "availableAt", "doneAt", "createdAt", "updatedAt") VALUES ('process_job', '{}', ?, ?, ?, ?, ?, ?)`,
    );
    const at = (days: number) => sqliteDate(new Date(now - days * DAY));
    const rows: Array<[string, string, number, number | null]> = [
      ["old-done", "done", 40, 39],
      ["old-done-2", "done", 31, 31],
      ["done-lately", "done", 40, 2], // waited out a long backoff; finished recently
      ["recent-done", "done", 3, 3],
      ["old-dead", "dead", 40, 39],
      ["old-ready", "ready", 40, null],
      ["old-leased", "leased", 40, null],
    ];
    for (const [jobId, state, made, done] of rows) item.run(jobId, state, at(made), done === null ? null : at(done), at(made), at(made));
    const deleted = await pruneHistory({ now: new Date(now) });
    expect(deleted["finished queue items"]).toBe(2);
    const left = (sql.prepare(`SELECT "jobId" FROM "QueueItem" ORDER BY "jobId"`).all() as Array<{ jobId: string }>).map((r) => r.jobId);
    expect(left).toEqual(["done-lately", "old-dead", "old-leased", "old-ready", "recent-done"]);
  });

  it("runs when the server starts", async () => {
    seed(Date.now(), { inbound: [20, 20, 1], mirror: [40], calls: [] });
    const tally = await startTally({ GEONODE_SCRAPER_API_KEY: "k", SCRAPER_API_BASE_URL: "http://127.0.0.1:9", TALLY_WORKER: "off" }, t.file);
    try {
      for (let i = 0; i < 100 && count("InboundDelivery") + count("PlatformDelivery") > 1; i++) await new Promise((r) => setTimeout(r, 50));
      expect([count("InboundDelivery"), count("PlatformDelivery")]).toEqual([1, 0]);
    } finally {
      await tally.stop();
    }
  });

  it("deletes sessions that ended before the history retention, never live ones", async () => {
    const now = Date.now();
    await db().user.create({ data: { id: "u-ret", email: "ret@example.com", name: "Ret", role: "viewer", passwordHash: "$argon2id$x" } });
    const at = (days: number) => new Date(now - days * DAY);
    await db().session.createMany({
      data: [
        { id: "old-ended", userId: "u-ret", clientAddress: "x", createdAt: at(40), lastSeenAt: at(40), expiresAt: at(39) },
        { id: "old-revoked", userId: "u-ret", clientAddress: "x", createdAt: at(40), lastSeenAt: at(40), expiresAt: at(31), revokedAt: at(40) },
        // created long ago but still live (a long TTL): kept
        { id: "old-live", userId: "u-ret", clientAddress: "x", createdAt: at(40), lastSeenAt: at(1), expiresAt: new Date(now + DAY) },
        { id: "recent-ended", userId: "u-ret", clientAddress: "x", createdAt: at(2), lastSeenAt: at(2), expiresAt: at(1) },
      ],
    });
    expect(await pruneHistory({ now: new Date(now) })).toMatchObject({ "ended sessions": 2 });
    expect((await db().session.findMany({ orderBy: { id: "asc" } })).map((s) => s.id)).toEqual(["old-live", "recent-ended"]);
  });
});
