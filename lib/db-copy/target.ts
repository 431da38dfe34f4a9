import "server-only";
import pg from "pg";
import { BadRequest } from "../errors";
import { quote, type Table } from "./catalog";
import type { ColumnType } from "./convert";

// The PostgreSQL side: one connection, one transaction. Rows go in with one INSERT … SELECT FROM
// unnest(array per column) per page: one parameter per column whatever the page size, far fewer
// round trips than row-by-row inserts, and no extra dependency (COPY would need one).

export async function connectTarget(url: string, shown: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  try {
    await c.connect();
  } catch (err) {
    await c.end().catch(() => undefined);
    throw new BadRequest(`cannot connect to the target ${shown}: ${(err as Error).message}`);
  }
  return c;
}

export async function appliedMigrations(c: pg.Client): Promise<string[] | null> {
  const has = await c.query<{ t: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS t`);
  if (!has.rows[0]?.t) return null;
  const r = await c.query<{ migration_name: string }>(
    `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
  );
  return r.rows.map((x) => x.migration_name);
}

/** Holds every table for the copy: no Tally pointed at the target by mistake can write meanwhile. */
export async function lockTables(c: pg.Client, tables: Table[]): Promise<void> {
  await c.query(`SET LOCAL lock_timeout = '10s'`);
  await c.query(`LOCK TABLE ${tables.map((t) => quote(t.name)).join(", ")} IN ACCESS EXCLUSIVE MODE`);
}

export async function nonEmpty(c: pg.Client, tables: Table[]): Promise<string[]> {
  const out: string[] = [];
  for (const t of tables) {
    const r = await c.query(`SELECT 1 FROM ${quote(t.name)} LIMIT 1`);
    if (r.rowCount) out.push(t.name);
  }
  return out;
}

const ARRAY_TYPE: Record<ColumnType, string> = {
  text: "text[]",
  int4: "int4[]",
  int8: "int8[]",
  float8: "float8[]",
  bool: "bool[]",
  timestamp: "timestamp(3)[]",
};

export function insertSql(t: Table): string {
  const cols = t.columns.map((c) => quote(c.name)).join(", ");
  const arrays = t.columns.map((c, i) => `$${i + 1}::${ARRAY_TYPE[c.type as ColumnType]}`).join(", ");
  return `INSERT INTO ${quote(t.name)} (${cols}) SELECT * FROM unnest(${arrays})`;
}

/** Inserts one page given column-wise (one array per column). */
export async function insertColumns(c: pg.Client, sql: string, columns: unknown[][]): Promise<number> {
  const r = await c.query(sql, columns);
  return r.rowCount ?? 0;
}

/** The next value of every sequence comes after the largest copied key, so the next insert does not collide. */
export async function advanceSequences(c: pg.Client, t: Table): Promise<Array<{ column: string; next: number }>> {
  const out: Array<{ column: string; next: number }> = [];
  for (const s of t.sequences) {
    const r = await c.query<{ next: string }>(
      `SELECT CASE WHEN m IS NULL THEN setval($1, 1, false) ELSE setval($1, m, true) + 1 END AS next
         FROM (SELECT max(${quote(s.column)}) AS m FROM ${quote(t.name)}) x`,
      [s.sequence],
    );
    out.push({ column: s.column, next: Number(r.rows[0]?.next) });
  }
  return out;
}

export async function countRows(c: pg.Client, t: Table): Promise<number> {
  const r = await c.query<{ n: string }>(`SELECT count(*) AS n FROM ${quote(t.name)}`);
  return Number(r.rows[0]?.n);
}
