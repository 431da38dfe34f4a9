import "server-only";
import type Database from "better-sqlite3";

// Prisma's SQLite adapter prepares every statement anew (`client.prepare(sql).bind(args)`, then
// run() or raw().all()): on the worker's hot path that was 7 % of the server's CPU (bench/pipeline.ts).
// This keeps the last MAX prepared statements per connection and hands the adapter a light stand-in
// that binds each call's arguments at run time (a better-sqlite3 statement can be bound only once).
// Safe because every use is synchronous: a statement is never in use twice at the same time.

const MAX = 256;

/** Prisma's SQLite text format for DateTime, so rows written or compared by hand match the ORM's. */
export function sqliteDate(d: Date): string {
  return d.toISOString().replace("Z", "+00:00");
}

type Bound = {
  readonly reader: boolean;
  run(): Database.RunResult;
  all(): unknown[];
  columns(): Database.ColumnDefinition[];
  raw(): { all(): unknown[] };
};

function bound(st: Database.Statement, args: unknown[]): Bound {
  return {
    reader: st.reader,
    run: () => st.run(args),
    all: () => st.raw(false).all(args),
    columns: () => st.columns(),
    raw: () => ({ all: () => st.raw(true).all(args) }),
  };
}

/** Makes `conn.prepare` reuse prepared statements, keyed by their SQL text (least recently used out). */
export function cachePreparedStatements(conn: Database.Database): void {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, Database.Statement>();
  const stand = (sql: string) => {
    let st = cache.get(sql);
    if (st) cache.delete(sql);
    else {
      st = prepare(sql);
      if (cache.size >= MAX) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, st);
    const statement = st;
    // Used directly too (BEGIN IMMEDIATE, lib/jobs/store-extract-sqlite.ts): arguments at run time.
    return {
      reader: statement.reader,
      run: (...args: unknown[]) => statement.run(...args),
      all: (...args: unknown[]) => statement.raw(false).all(...args),
      columns: () => statement.columns(),
      bind: (args: unknown[]) => bound(statement, args),
    };
  };
  conn.prepare = stand as unknown as typeof conn.prepare;
}
