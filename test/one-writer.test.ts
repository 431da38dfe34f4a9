// One writer at a time (issue 38): no statement of the app's connection runs inside another caller's
// open transaction, whichever way it is made. On SQLite the process has one connection, so a
// statement made while another caller's interactive transaction is open used to run INSIDE it: a
// write answered OK vanished with that transaction's rollback (or with a crash before its commit),
// and a read saw rows nobody had committed. On PostgreSQL each statement has a connection of its own
// from the pool, so the same scenarios pass by construction; they run there too.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@/generated/prisma/client";
import { db, directQuery, transaction } from "@/lib/db";
import { createTestDb, type TestDb } from "./db";
import { openSql, type TestSql } from "./sql";

let t: TestDb;
let sql: TestSql;
beforeAll(async () => {
  t = await createTestDb();
  sql = await openSql(t.url);
});
afterAll(async () => {
  await sql.close();
  await t.cleanup();
});

const rowsOf = (action: string) => sql.count("AuditLog", `"action" = ?`, action);

/**
 * Opens a transaction that writes `inside` and stays open a while; meanwhile another caller (this
 * test, outside the transaction's callback) makes its statement with `during`; then the transaction
 * commits or rolls back. Resolves with what `during` answered.
 */
async function withOpenTransaction<T>(inside: string, end: "commit" | "rollback", during: () => Promise<T>) {
  let opened: () => void = () => undefined;
  const open = new Promise<void>((r) => (opened = r));
  const tx = transaction(async (tx) => {
    await tx.auditLog.create({ data: { actor: "tx", action: inside } });
    opened();
    await new Promise((r) => setTimeout(r, 50));
    if (end === "rollback") throw new Error("rolled back on purpose");
  });
  tx.catch(() => undefined);
  await open;
  // Not awaited yet: on SQLite it now waits for the transaction to end.
  const answer = during();
  answer.catch(() => undefined);
  if (end === "rollback") await expect(tx).rejects.toThrow("rolled back on purpose");
  else await tx;
  return answer;
}

const ways: Array<[string, (action: string) => Promise<unknown>]> = [
  ["an ORM write", (action) => db().auditLog.create({ data: { actor: "outside", action } })],
  [
    "a raw write ($executeRaw)",
    (action) =>
      db()
        .$executeRaw`INSERT INTO "AuditLog" ("at", "actor", "action", "ok") VALUES (${new Date()}, 'outside', ${action}, true)`,
  ],
  [
    "a direct write (directQuery)",
    async (action) => {
      const statement = Prisma.sql`INSERT INTO "AuditLog" ("at", "actor", "action", "ok")
        VALUES (${new Date()}, 'outside', ${action}, true) RETURNING "id"`;
      return (await directQuery(statement)) ?? (await db().$queryRaw(statement));
    },
  ],
  [
    "an ORM write in a transaction of its own",
    (action) => transaction((tx) => tx.auditLog.create({ data: { actor: "outside", action } })),
  ],
];

describe.each(ways)("%s made while another caller's transaction is open", (_, write) => {
  it("survives that transaction's rollback", async () => {
    const action = `survives-${Math.random()}`;
    const answered = await withOpenTransaction(`${action}-inside`, "rollback", () => write(action));
    expect(answered).toBeTruthy();
    expect(await rowsOf(action)).toBe(1);
    expect(await rowsOf(`${action}-inside`)).toBe(0);
  });

  it("stands beside that transaction's commit", async () => {
    const action = `beside-${Math.random()}`;
    await withOpenTransaction(`${action}-inside`, "commit", () => write(action));
    expect(await rowsOf(action)).toBe(1);
    expect(await rowsOf(`${action}-inside`)).toBe(1);
  });
});

const reads: Array<[string, (action: string) => Promise<number>]> = [
  ["an ORM read", (action) => db().auditLog.count({ where: { action } })],
  [
    "a raw read ($queryRaw)",
    async (action) => (await db().$queryRaw<unknown[]>`SELECT "id" FROM "AuditLog" WHERE "action" = ${action}`).length,
  ],
  [
    "a direct read (directQuery)",
    async (action) => {
      const statement = Prisma.sql`SELECT "id" FROM "AuditLog" WHERE "action" = ${action}`;
      return ((await directQuery(statement)) ?? (await db().$queryRaw<unknown[]>(statement))).length;
    },
  ],
];

describe.each(reads)("%s made while another caller's transaction is open", (_, read) => {
  it("never sees that transaction's uncommitted rows", async () => {
    const action = `dirty-${Math.random()}`;
    const seen = await withOpenTransaction(action, "rollback", () => read(action));
    expect(seen).toBe(0);
  });

  it("sees them only once committed", async () => {
    const action = `committed-${Math.random()}`;
    const seen = await withOpenTransaction(action, "commit", () => read(action));
    // Before the commit (PostgreSQL: read at once) it sees nothing; after it (SQLite: it waited), one.
    expect([0, 1]).toContain(seen);
    expect(await read(action)).toBe(1);
  });
});

it("a statement made through db() inside one's own transaction fails at once instead of waiting for it", async () => {
  if (t.url.startsWith("postgresql")) return; // a pool connection of its own there: no wait to fail
  const action = `own-${Math.random()}`;
  const started = Date.now();
  await expect(
    transaction(async () => {
      await db().auditLog.create({ data: { actor: "outside", action } });
    }),
  ).rejects.toThrow(/inside its own transaction/);
  expect(Date.now() - started).toBeLessThan(5000);
  expect(await rowsOf(action)).toBe(0);
});

it("a process SIGKILLed while a transaction is open keeps every write it answered", async () => {
  const child = spawn(
    path.resolve("node_modules/.bin/tsx"),
    ["--conditions=react-server", "test/one-writer-child.ts"],
    {
      env: {
        ...process.env,
        NODE_ENV: "test",
        DATABASE_URL: t.url,
        TALLY_OPERATOR_PASSWORD: "correct horse battery",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("open\n")) resolve();
    });
    child.on("exit", () => reject(new Error(`child ended early: ${out}\n${err}`)));
  });
  // Writes keep being made and answered (or, on SQLite, keep waiting) while the transaction stays open.
  await new Promise((r) => setTimeout(r, 400));
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  const answered = [...out.matchAll(/^answered (\S+)$/gm)].map((m) => m[1]);
  // Some writes were answered before the transaction opened; on PostgreSQL also while it was open.
  expect(answered.length).toBeGreaterThanOrEqual(5);
  const stored = new Set(
    (await sql.all<{ action: string }>(`SELECT "action" FROM "AuditLog" WHERE "actor" = 'child'`)).map((r) => r.action),
  );
  const lost = answered.filter((a) => !stored.has(a));
  expect(lost).toEqual([]);
  // The open transaction's own row never committed.
  expect(await sql.count("AuditLog", `"actor" = 'child-tx'`)).toBe(0);
});
