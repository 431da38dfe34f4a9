import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkpointThread,
  manageCheckpoints,
  stopBackgroundCheckpoints,
  enableBackgroundCheckpoints,
} from "./sqlite-checkpoint";

// With background checkpoints on, a connection's commits never checkpoint (wal_autocheckpoint = 0) and
// the file's thread copies the log into the database instead; if the thread stops, the connection
// goes back to checkpointing on its own, so the log cannot grow without end.
const dir = mkdtempSync(path.join(tmpdir(), "tally-checkpoint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function open(name: string) {
  const file = path.join(dir, name);
  const conn = new Database(file);
  conn.pragma("journal_mode = WAL");
  conn.pragma("synchronous = NORMAL");
  conn.exec('CREATE TABLE "T" ("id" INTEGER PRIMARY KEY, "body" TEXT)');
  return { file, conn };
}

/** About 2,500 pages of 4 KiB in one commit each: well past the 1,000 that trigger an automatic checkpoint. */
function writePages(conn: Database.Database, commits = 50) {
  const insert = conn.prepare('INSERT INTO "T" ("body") VALUES (?)');
  for (let i = 0; i < commits; i++) conn.transaction(() => insert.run("x".repeat(200_000)))();
}

const autoPages = (conn: Database.Database) => conn.pragma("wal_autocheckpoint", { simple: true });
const size = (file: string) => statSync(file).size;

async function until(check: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

describe("background checkpoints", () => {
  it("are off unless the process turns them on: the connection keeps checkpointing itself", () => {
    const { file, conn } = open("off.db");
    manageCheckpoints(conn, file);
    expect(autoPages(conn)).toBe(1000);
    expect(checkpointThread(file)).toBeUndefined();
    writePages(conn);
    // The commits that crossed 1,000 pages copied the log into the database file themselves.
    expect(size(file)).toBeGreaterThan(5_000_000);
    conn.close();
  });

  it("leave the log to the file's thread, which copies it into the database", async () => {
    enableBackgroundCheckpoints();
    const { file, conn } = open("on.db");
    const before = size(file);
    manageCheckpoints(conn, file);
    expect(autoPages(conn)).toBe(0);
    expect(checkpointThread(file)).toBeDefined();
    conn.pragma("wal_checkpoint(TRUNCATE)"); // the table's creation, so what follows starts from an empty log
    writePages(conn);
    // The thread, not a commit, moves the pages: the database grows by the 10 MB written.
    expect(await until(() => size(file) > before + 5_000_000)).toBe(true);
    expect(conn.prepare('SELECT COUNT(*) AS "n" FROM "T"').get()).toEqual({ n: 50 });
    await stopBackgroundCheckpoints();
    expect(checkpointThread(file)).toBeUndefined();
    conn.close();
  });

  it("hand checkpoints back to the connections when the thread stops", async () => {
    enableBackgroundCheckpoints();
    const { file, conn } = open("fallback.db");
    manageCheckpoints(conn, file);
    expect(autoPages(conn)).toBe(0);
    await checkpointThread(file)!.terminate();
    expect(await until(() => autoPages(conn) === 1000)).toBe(true);
    expect(checkpointThread(file)).toBeUndefined();
    conn.close();
  });
});
