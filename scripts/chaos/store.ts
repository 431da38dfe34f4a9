// The chaos run's database: a SQLite file in a temp folder, or a PostgreSQL database created for the
// run (from a migrated template when one is given, else migrated here) and dropped at the end. The
// harness reads it only through all(): SQL with quoted identifiers and `?` placeholders, portable.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { spawnSync } from "node:child_process";
import Database from "better-sqlite3";
import pg from "pg";

export type StoreKind = "sqlite" | "postgres";

export type ChaosStore = {
  kind: StoreKind;
  url: string;
  all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  /** Closes the harness's connections and removes the database. */
  dispose(): Promise<void>;
};

export type PostgresOptions = {
  /** A connection to the server's maintenance database, for CREATE/DROP DATABASE. */
  adminUrl: string;
  /** A migrated database to copy (CREATE DATABASE … TEMPLATE); without it the run migrates its own. */
  template?: string;
};

export const DEFAULT_POSTGRES_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

function migrate(url: string) {
  const r = spawnSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`migration failed: ${r.stderr}`);
}

export async function createChaosStore(kind: StoreKind, postgres?: PostgresOptions): Promise<ChaosStore> {
  return kind === "postgres"
    ? createPostgresStore(postgres ?? { adminUrl: DEFAULT_POSTGRES_ADMIN_URL })
    : createSqliteStore();
}

function createSqliteStore(): ChaosStore {
  const dir = mkdtempSync(path.join(tmpdir(), "tally-chaos-"));
  const file = path.join(dir, "tally.db");
  const url = `file:${file}`;
  try {
    migrate(url);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const reader = sqliteReader(url);
  return {
    ...reader,
    async dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Reads an existing SQLite database (`file:` URL); dispose() leaves the file alone. */
export function sqliteReader(url: string): ChaosStore {
  const file = url.replace(/^file:/, "");
  return {
    kind: "sqlite",
    url,
    async all<T>(sql: string, ...params: unknown[]) {
      // A connection per read: the servers are SIGKILLed under it, and it must see their last commit.
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare(sql).all(...params) as T[];
      } finally {
        db.close();
      }
    },
    async dispose() {},
  };
}

/** Reads an existing PostgreSQL database through a small pool; dispose() closes the pool only. */
export function postgresReader(url: string): ChaosStore {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  return {
    kind: "postgres",
    url,
    async all<T>(sql: string, ...params: unknown[]) {
      let n = 0;
      const res = await pool.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      );
      return res.rows as T[];
    },
    async dispose() {
      await pool.end();
    },
  };
}

async function admin(adminUrl: string, sql: string) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function createPostgresStore(o: PostgresOptions): Promise<ChaosStore> {
  const name = `tally_chaos_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await admin(
    o.adminUrl,
    o.template ? `CREATE DATABASE "${name}" TEMPLATE "${o.template}"` : `CREATE DATABASE "${name}"`,
  );
  const u = new URL(o.adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const drop = () => admin(o.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  try {
    if (!o.template) migrate(url);
  } catch (err) {
    await drop();
    throw err;
  }
  const reader = postgresReader(url);
  return {
    ...reader,
    async dispose() {
      await reader.dispose();
      await drop();
    },
  };
}
