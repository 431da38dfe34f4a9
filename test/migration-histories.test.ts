// One model change, one migration name in both stores' histories (npm run db:migration).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { folders, historyProblems, readAllowed } from "./migration-histories";

const prisma = path.join(import.meta.dirname, "..", "prisma");
const sqlite = folders(path.join(prisma, "migrations"));
const postgres = folders(path.join(prisma, "postgres", "migrations"));
const allowed = readAllowed(prisma);

describe("the SQLite and PostgreSQL migration histories", () => {
  it("match one for one, apart from the migrations prisma/migration-histories.json names with a reason", () => {
    expect(sqlite.length).toBeGreaterThan(10);
    expect(postgres.length).toBeGreaterThan(10);
    expect(historyProblems(sqlite, postgres, allowed)).toEqual([]);
  });

  it("fail when a migration is added to one folder only, either way round", () => {
    const added = "20991231235959_add_something";
    expect(historyProblems([...sqlite, added], postgres, allowed)).toEqual([
      expect.stringContaining(`${added} is in prisma/migrations (SQLite) only`),
    ]);
    expect(historyProblems(sqlite, [...postgres, added], allowed)).toEqual([
      expect.stringContaining(`${added} is in prisma/postgres/migrations (PostgreSQL) only`),
    ]);
    expect(historyProblems([...sqlite, added], [...postgres, added], allowed)).toEqual([]);
  });

  it("fail on an allow-list entry that is stale, contradicted or without a reason", () => {
    const stale = { ...allowed, sqliteOnly: { ...allowed.sqliteOnly, "20990101000000_gone": "a reason long enough" } };
    expect(historyProblems(sqlite, postgres, stale)).toEqual([expect.stringContaining("20990101000000_gone")]);
    const both = "20261201140000_accounts";
    const contradicted = { ...allowed, postgresOnly: { ...allowed.postgresOnly, [both]: "a reason long enough" } };
    expect(historyProblems(sqlite, postgres, contradicted)).toEqual([
      expect.stringContaining(`names ${both} as one store's, but both have it`),
    ]);
    const [first] = Object.keys(allowed.sqliteOnly);
    const unexplained = { ...allowed, sqliteOnly: { ...allowed.sqliteOnly, [first]: "" } };
    expect(historyProblems(sqlite, postgres, unexplained)).toEqual([expect.stringContaining("no real reason")]);
  });

  it("fail when two new migrations share a timestamp (the early SQLite pair that does is allow-listed)", () => {
    const a = "20991231235959_one";
    const b = "20991231235959_two";
    expect(historyProblems([...sqlite, a, b], [...postgres, a, b], allowed)).toEqual([
      expect.stringContaining("share the timestamp 20991231235959"),
      expect.stringContaining("share the timestamp 20991231235959"),
    ]);
  });
});
