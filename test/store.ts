// Which store the integration tests run on: SQLite always; PostgreSQL in the `postgres` vitest
// project (TALLY_TEST_STORE=postgres), against TALLY_TEST_POSTGRES_URL or the local server. Every
// PostgreSQL test file gets a database of its own, copied from a migrated template, and drops it.
import { randomUUID } from "node:crypto";
import pg from "pg";

export const TEST_STORE: "sqlite" | "postgres" = process.env.TALLY_TEST_STORE === "postgres" ? "postgres" : "sqlite";

/** A connection to the server's maintenance database, for creating and dropping test databases. */
export const POSTGRES_ADMIN_URL =
  process.env.TALLY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export function postgresUrl(database: string): string {
  const u = new URL(POSTGRES_ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export const testDatabaseName = (prefix: string) => `${prefix}_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
