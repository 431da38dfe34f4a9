import { chmodSync, closeSync, openSync, statSync } from "node:fs";

/**
 * The SQLite file holds password hashes, session and token digests and webhook secrets: created readable
 * by its owner only (0600), and a file found readable by others is made so (SQLite gives its -wal and
 * -shm files the database file's mode).
 */
export function secureSqliteFile(url: string): void {
  const file = url.replace(/^file:/, "").replace(/\?.*$/, "");
  if (file === ":memory:" || file === "") return;
  try {
    closeSync(openSync(file, "a", 0o600));
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  } catch {
    // A folder that does not exist yet or a read-only mount: SQLite reports it better when it opens the file.
  }
}
