// The PostgreSQL server the benches make their scratch databases on, and the two things they do with it.
import pg from "pg";

export const PG_ADMIN = process.env.TALLY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** One statement on the admin connection (CREATE / DROP DATABASE). */
export async function pgAdmin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_ADMIN });
  await c.connect();
  await c.query(sql);
  await c.end();
}

/** The URL of the database `name` on the admin's server. */
export function pgDatabaseUrl(name: string): string {
  const u = new URL(PG_ADMIN);
  u.pathname = `/${name}`;
  return u.toString();
}
