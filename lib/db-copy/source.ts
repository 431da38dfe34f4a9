import "server-only";
import { existsSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { Conflict, BadRequest } from "../errors";
import { quote, type Table } from "./catalog";

// The SQLite side: a stopped Tally's file, read inside one exclusive transaction (nobody else can
// have it open meanwhile), page by page in primary-key order (keyset: each page starts
// after the last key of the one before, so memory stays one page whatever the table's size).

export type Source = {
  file: string;
  tables: Set<string>;
  columns(table: string): string[];
  appliedMigrations(): string[];
  count(table: string): number;
  pages(table: Table, size: number): Generator<unknown[][]>;
  close(): void;
};

const INTERNAL = /^(sqlite_|_prisma_migrations$)/;

export function openSource(url: string): Source {
  const file = url.replace(/^file:/, "").replace(/\?.*$/, "");
  if (!existsSync(file) || !statSync(file).isFile())
    throw new BadRequest(
      `the source ${url} does not exist (give the SQLite file Tally ran on, e.g. file:./data/tally.db)`,
    );
  // Not readonly: the exclusive lock below needs a connection that may write (it never does).
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  // Nobody else may have the file open: Tally keeps its connection open in WAL mode even when idle,
  // and a connection in exclusive locking mode (set before its first read) cannot lock the file while
  // any other connection uses it; we try once, without waiting. Held until close, the lock also keeps
  // anyone from opening the file mid-copy. Nothing is written.
  try {
    db.pragma("locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.prepare("SELECT count(*) FROM sqlite_master").get();
  } catch (err) {
    db.close();
    const message = (err as Error).message;
    if (/locked|busy/i.test(message)) {
      throw new Conflict(
        `the source ${url} is open in another process (${message}): stop Tally (npm start, workers, receivers, any sqlite3 shell) first`,
      );
    }
    throw new BadRequest(`the source ${url} is not a SQLite database: ${message}`);
  }
  const names = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[];
  if (!names.includes("_prisma_migrations")) {
    db.exec("ROLLBACK");
    db.close();
    throw new BadRequest(`the source ${url} is not a Tally database (no _prisma_migrations table)`);
  }
  return {
    file,
    tables: new Set(names.filter((n) => !INTERNAL.test(n))),
    columns: (table) => db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[],
    appliedMigrations: () =>
      db
        .prepare(
          `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
        )
        .pluck()
        .all() as string[],
    count: (table) =>
      db
        .prepare(`SELECT count(*) FROM ${quote(table)}`)
        .pluck()
        .get() as number,
    *pages(table, size) {
      const cols = table.columns.map((c) => quote(c.name)).join(", ");
      const key = table.primaryKey.map(quote);
      const keyAt = table.primaryKey.map((k) => table.columns.findIndex((c) => c.name === k));
      const order = key.join(", ");
      const first = db.prepare(`SELECT ${cols} FROM ${quote(table.name)} ORDER BY ${order} LIMIT ?`).raw(true);
      const next = db
        .prepare(
          `SELECT ${cols} FROM ${quote(table.name)} WHERE (${order}) > (${key.map(() => "?").join(", ")}) ORDER BY ${order} LIMIT ?`,
        )
        .raw(true);
      let page = first.all(size) as unknown[][];
      while (page.length > 0) {
        yield page;
        if (page.length < size) return;
        const last = page[page.length - 1];
        page = next.all(...keyAt.map((i) => last[i]), size) as unknown[][];
      }
    },
    close() {
      if (db.inTransaction) db.exec("ROLLBACK");
      db.close();
    },
  };
}
