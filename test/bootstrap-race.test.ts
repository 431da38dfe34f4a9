// N servers starting together on one new database each try to make the first admin: exactly one
// does, and none of them fails to start over it. Runs on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBootstrapAdmin } from "@/lib/auth/bootstrap";
import { db } from "@/lib/db";
import { createTestDb, type TestDb } from "./db";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t?.cleanup());

describe("the first admin, made by several starting servers at once", () => {
  it("is created once; the others find it", async () => {
    expect(await db().user.count()).toBe(0);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => ensureBootstrapAdmin({ operatorPassword: "correct horse battery" })),
    );
    expect(results.filter((r) => r === "created")).toHaveLength(1);
    expect(results.filter((r) => r !== "created").every((r) => r === "unchanged")).toBe(true);
    expect(await db().user.findMany({ select: { email: true, role: true } })).toEqual([
      { email: "admin@localhost", role: "admin" },
    ]);
  });
});
