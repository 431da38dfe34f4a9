// Tests run on both stores by default: the PostgreSQL run (vitest.postgres.config.mts) takes every test
// file that reaches a database, except the few test/postgres-run.mts names with a reason.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reachesDatabase, SQLITE_ONLY, sqliteOnlyFiles, testFiles } from "./postgres-run.mts";

const root = path.join(import.meta.dirname, "..");
const all = testFiles(root);
const sqliteOnly = sqliteOnlyFiles(root, all);

describe("the PostgreSQL run", () => {
  it("takes every test file that opens a test database or starts Tally, unless it opts out with a reason", () => {
    const usesDatabase = all.filter((f) =>
      /\bcreateTestDb\(|\bstartTally\(|\bopenSql\(/.test(readFileSync(path.join(root, f), "utf8")),
    );
    expect(usesDatabase.length).toBeGreaterThan(40);
    expect(usesDatabase.filter((f) => sqliteOnly.includes(f) && !(f in SQLITE_ONLY))).toEqual([]);
    expect(sqliteOnly).toEqual(expect.arrayContaining(Object.keys(SQLITE_ONLY)));
    for (const reason of Object.values(SQLITE_ONLY)) expect(reason.length).toBeGreaterThan(40);
  });

  it("leaves out the pure unit tests, and keeps the store-specific PostgreSQL files", () => {
    expect(sqliteOnly).toEqual(
      expect.arrayContaining(["lib/platform/errors.test.ts", "test/config.test.ts", "test/log.test.ts"]),
    );
    for (const f of ["test/dashboard-jobs.test.ts", "lib/results/results.test.ts", "test/postgres-dashboard.test.ts"])
      expect(sqliteOnly).not.toContain(f);
    expect(all.length - sqliteOnly.length).toBeGreaterThan(50);
  });

  describe("reachesDatabase", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tally-postgres-run-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
      return path.join(dir, file);
    };
    write("lib/db.ts", 'import pg from "pg";\nexport const db = pg;\n');
    write("lib/pure.ts", "export const two = 2;\n");
    write("test/helper.ts", 'export { db } from "@/lib/db";\n');

    it("follows the repo's own imports (relative, @/, re-exports, dynamic) to a database driver", () => {
      expect(reachesDatabase(dir, write("a.test.ts", 'import { db } from "./test/helper";\n'))).toBe(true);
      expect(reachesDatabase(dir, write("b.test.ts", 'const m = await import("@/lib/db");\n'))).toBe(true);
      expect(reachesDatabase(dir, write("c.test.ts", 'import { two } from "./lib/pure";\nimport "vitest";\n'))).toBe(
        false,
      );
      expect(reachesDatabase(dir, write("d.test.ts", 'import type { db } from "./lib/db";\n'))).toBe(false);
      expect(reachesDatabase(dir, write("e.test.ts", 'import Database from "better-sqlite3";\n'))).toBe(true);
    });
  });
});
