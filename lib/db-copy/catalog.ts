import "server-only";
import type pg from "pg";
import { ModelName } from "@/generated/prisma/internal/prismaNamespaceBrowser";
import { BadRequest } from "../errors";

// What to copy comes from the models (the generated client's ModelName, made from
// prisma/schema.prisma) and how from the migrated target's catalog: column types, primary keys,
// foreign keys and serial sequences. Nothing here is a hand-kept list that could go stale.

/** `type` is the catalog's udt_name; plan() checks that every copied column's is one convert() knows. */
export type Column = { name: string; type: string; hasDefault: boolean; nullable: boolean };
export type Table = {
  name: string;
  columns: Column[];
  primaryKey: string[];
  /** The tables this one references (copied before it). */
  references: string[];
  /** Columns filled by a sequence (SERIAL/identity), with the sequence's name. */
  sequences: Array<{ column: string; sequence: string }>;
};

export const MODEL_TABLES: readonly string[] = Object.values(ModelName);

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const quote = q;

export async function readCatalog(c: pg.ClientBase): Promise<Map<string, Table>> {
  const cols = await c.query<{
    table_name: string;
    column_name: string;
    udt_name: string;
    col_default: string | null;
    nullable: string;
    identity: string;
  }>(
    `SELECT table_name, column_name, udt_name, column_default AS col_default, is_nullable AS nullable, is_identity AS identity
       FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const pks = await c.query<{ table_name: string; column_name: string }>(
    `SELECT t.relname AS table_name, a.attname AS column_name
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
       JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
      WHERE i.indisprimary AND n.nspname = current_schema() ORDER BY t.relname, k.ord`,
  );
  const fks = await c.query<{ table_name: string; ref: string }>(
    `SELECT t.relname AS table_name, r.relname AS ref
       FROM pg_constraint f JOIN pg_class t ON t.oid = f.conrelid JOIN pg_class r ON r.oid = f.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE f.contype = 'f' AND n.nspname = current_schema()`,
  );
  const tables = new Map<string, Table>();
  for (const r of cols.rows) {
    // Only the models' tables: _prisma_migrations and anything else the target holds are not copied.
    if (!MODEL_TABLES.includes(r.table_name)) continue;
    let t = tables.get(r.table_name);
    if (!t)
      tables.set(
        r.table_name,
        (t = { name: r.table_name, columns: [], primaryKey: [], references: [], sequences: [] }),
      );
    t.columns.push({
      name: r.column_name,
      type: r.udt_name,
      hasDefault: r.col_default !== null || r.identity === "YES",
      nullable: r.nullable === "YES",
    });
    const seq = /^nextval\('(.+)'::regclass\)$/.exec(r.col_default ?? "");
    if (seq) t.sequences.push({ column: r.column_name, sequence: seq[1] });
  }
  for (const r of pks.rows) tables.get(r.table_name)?.primaryKey.push(r.column_name);
  for (const r of fks.rows) {
    const t = tables.get(r.table_name);
    if (t && r.ref !== r.table_name && !t.references.includes(r.ref)) t.references.push(r.ref);
  }
  // Identity columns have no nextval() default; pg_get_serial_sequence finds theirs.
  const identity = await c.query<{ table_name: string; column_name: string; seq: string }>(
    `SELECT table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) AS seq
       FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'`,
  );
  for (const r of identity.rows) tables.get(r.table_name)?.sequences.push({ column: r.column_name, sequence: r.seq });
  return tables;
}

/** Parents before children, so every foreign key finds its row; ties keep the models' order. */
export function copyOrder(tables: Table[]): Table[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const out: Table[] = [];
  const visit = (t: Table, path: string[]) => {
    if (done.has(t.name)) return;
    if (path.includes(t.name)) throw new BadRequest(`foreign keys form a cycle: ${[...path, t.name].join(" → ")}`);
    for (const ref of t.references) {
      const parent = byName.get(ref);
      if (parent) visit(parent, [...path, t.name]);
    }
    done.add(t.name);
    out.push(t);
  };
  for (const t of tables) visit(t, []);
  return out;
}
