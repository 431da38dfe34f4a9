// Issue 27 (low): the SQLite file, which holds password hashes, token digests and webhook secrets, was
// created readable by everyone (0644 under the usual umask). Tally now creates it 0600, and SQLite gives
// its -wal and -shm files the same mode.
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { parseConfig, setConfigForTests } from "@/lib/config";
import { db, dbReady, disconnectAll } from "@/lib/db";

let dir: string | undefined;
afterEach(async () => {
  await disconnectAll();
  setConfigForTests(undefined);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it.runIf(process.env.TALLY_TEST_STORE !== "postgres")(
  "creates the database file, its WAL and shared-memory files readable by the owner only",
  async () => {
    dir = mkdtempSync(path.join(tmpdir(), "tally-mode-"));
    const file = path.join(dir, "fresh.db");
    setConfigForTests(parseConfig({ NODE_ENV: "test", DATABASE_URL: `file:${file}` }));
    await dbReady();
    await db().$executeRawUnsafe("CREATE TABLE t (x INTEGER)");
    await db().$executeRawUnsafe("INSERT INTO t VALUES (1)");
    for (const f of [file, `${file}-wal`, `${file}-shm`]) {
      expect(existsSync(f), f).toBe(true);
      expect((statSync(f).mode & 0o777).toString(8), f).toBe("600");
    }
  },
);
