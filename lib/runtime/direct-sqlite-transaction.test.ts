// directSqliteTransaction (lib/db.ts): a synchronous transaction on the app's SQLite connection, in
// its turn among the ORM's transactions. A throw rolls back every statement and gives the slot back;
// an ORM transaction open at the time is waited for, never interleaved. On PostgreSQL it is null.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, dialect, directSqliteTransaction, transaction } from "@/lib/db";
import { createTestDb, type TestDb } from "@/test/db";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.cleanup();
});

const insert = 'INSERT INTO "JobEvent" ("jobId", "at", "type", "detail") VALUES (?, ?, ?, NULL)';
const count = (jobId: string) => db().jobEvent.count({ where: { jobId } });

describe.runIf(dialect() === "sqlite")("directSqliteTransaction", () => {
  it("commits what it wrote, and a throw rolls it all back and frees the connection", async () => {
    const at = new Date().toISOString().replace("Z", "+00:00");
    await directSqliteTransaction((sqlite) => sqlite.run(insert, "direct-ok", at, "note"));
    expect(await count("direct-ok")).toBe(1);

    await expect(
      directSqliteTransaction((sqlite) => {
        sqlite.run(insert, "direct-bad", at, "note");
        throw new Error("half-way");
      }),
    ).rejects.toThrow("half-way");
    expect(await count("direct-bad")).toBe(0);
    // The slot was given back: ORM transactions and direct ones still run.
    await transaction((tx) => tx.jobEvent.create({ data: { jobId: "direct-after", type: "note" } }));
    await directSqliteTransaction((sqlite) => sqlite.run(insert, "direct-after", at, "note"));
    expect(await count("direct-after")).toBe(2);
  });

  it("waits for an ORM transaction that is open, instead of writing inside it", async () => {
    const at = new Date().toISOString().replace("Z", "+00:00");
    let opened = () => undefined as void;
    const open = new Promise<void>((r) => (opened = r));
    const orm = transaction(async (tx) => {
      await tx.jobEvent.create({ data: { jobId: "orm-open", type: "note" } });
      opened();
      await new Promise((r) => setTimeout(r, 50));
      throw new Error("roll the ORM transaction back");
    });
    // Another caller, while the ORM transaction is open.
    await open;
    const direct = directSqliteTransaction((sqlite) => sqlite.run(insert, "orm-open", at, "note"));
    await expect(orm).rejects.toThrow("roll the ORM");
    await direct;
    // Only the direct write is left: it ran after the ORM transaction, not inside it.
    expect(await count("orm-open")).toBe(1);
  });
});
