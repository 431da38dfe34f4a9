// Read-then-write transactions must survive a commit by another connection in between (the
// receiver's connection commits all the time): without BEGIN IMMEDIATE, SQLite answers
// SQLITE_BUSY_SNAPSHOT and the transaction fails.
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Prisma } from "@/generated/prisma/client";
import { db, directQuery } from "@/lib/db";
import { createTestDb, type TestDb } from "./db";

let t: TestDb;
let other: Database.Database;
beforeAll(async () => {
  t = await createTestDb();
  other = new Database(t.file, { timeout: 0 });
  await db().auditLog.create({ data: { actor: "a", action: "seed" } });
});
afterAll(async () => {
  other.close();
  await t.cleanup();
});

it("a Prisma transaction that reads, lets another connection try to commit, then writes, commits", async () => {
  let otherResult = "";
  await db().$transaction(async (tx) => {
    await tx.auditLog.findMany();
    // Another connection writes now: with the write lock held from BEGIN it must wait (BUSY).
    try {
      other
        .prepare(
          `INSERT INTO "AuditLog" (at, actor, action, ok) VALUES ('2026-01-01T00:00:00.000+00:00', 'other', 'x', 1)`,
        )
        .run();
      otherResult = "committed";
    } catch (err) {
      otherResult = String((err as { code?: string }).code);
    }
    await tx.auditLog.create({ data: { actor: "tx", action: "after-read" } });
  });
  expect(otherResult).toBe("SQLITE_BUSY");
  expect(await db().auditLog.count({ where: { action: "after-read" } })).toBe(1);
});

it("a statement outside a transaction waits for another process's write lock without stalling the event loop", async () => {
  // Another process (a backup, a sqlite3 shell, a second worker) holds the write lock.
  other.exec("BEGIN IMMEDIATE");
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const viaOrm = db().auditLog.updateMany({ where: { action: "seed" }, data: { actor: "b" } });
  const direct = directQuery(Prisma.sql`UPDATE "AuditLog" SET "ok" = 1 WHERE "action" = 'seed' RETURNING "id"`);
  await new Promise((r) => setTimeout(r, 600));
  // A synchronous busy wait would have frozen the loop: no timer would have fired meanwhile.
  const whileHeld = ticks;
  other.exec("ROLLBACK");
  const [orm, rows] = await Promise.all([viaOrm, direct]);
  clearInterval(timer);
  expect(whileHeld).toBeGreaterThan(20);
  expect(orm.count).toBe(1);
  expect(rows).toHaveLength(1);
});
