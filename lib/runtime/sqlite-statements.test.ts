import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { cachePreparedStatements } from "./sqlite-statements";

// The adapter's calling pattern (prepare(sql).bind(args) then run() or raw().all()) on a connection
// whose statements are cached: each call sees its own arguments, readers and writers alike.
describe("cached prepared statements", () => {
  it("reuses a statement per SQL text, binding each call's own arguments", () => {
    const conn = new Database(":memory:");
    cachePreparedStatements(conn);
    conn.prepare('CREATE TABLE "T" ("id" INTEGER PRIMARY KEY, "name" TEXT)').run();
    const insert = 'INSERT INTO "T" ("id", "name") VALUES (?, ?)';
    expect(conn.prepare(insert).bind([1, "a"]).run().changes).toBe(1);
    expect(conn.prepare(insert).bind([2, "b"]).run().changes).toBe(1);
    const select = 'SELECT "id", "name" FROM "T" WHERE "id" >= ? ORDER BY "id"';
    const first = conn.prepare(select).bind([1]);
    expect(first.reader).toBe(true);
    expect(first.columns().map((c) => c.name)).toEqual(["id", "name"]);
    expect(first.raw().all()).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
    expect(conn.prepare(select).bind([2]).raw().all()).toEqual([[2, "b"]]);
    // A failing statement throws at run time as before; the next call with good arguments works.
    expect(() => conn.prepare(insert).bind([1, "dup"]).run()).toThrow(/UNIQUE/);
    expect(conn.prepare(select).bind([0]).raw().all()).toHaveLength(2);
    conn.close();
  });
});
