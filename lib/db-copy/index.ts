import "server-only";
import type pg from "pg";
import { redactUrl, storeOf } from "../config";
import { BadRequest, Conflict } from "../errors";
import { copyOrder, MODEL_TABLES, readCatalog, type Table } from "./catalog";
import { BadValue, convert, isSupportedType, type ColumnType } from "./convert";
import { MIGRATION_DIRS, migrationGap, migrationsIn } from "./migrations";
import { n, table } from "./report";
import { openSource, type Source } from "./source";
import {
  advanceSequences,
  appliedMigrations,
  connectTarget,
  countRows,
  insertColumns,
  insertSql,
  lockTables,
  nonEmpty,
} from "./target";

// npm run db:copy: every model table of a stopped SQLite Tally into an empty, migrated PostgreSQL
// database, in ONE PostgreSQL transaction (a failure leaves the target as empty as it was), parents
// before children, page by page, with the sequences advanced and the row counts verified before
// COMMIT. Refusals (wrong URLs, unmigrated or non-empty target, busy source) throw TallyErrors
// before anything is written; a failed copy throws CopyFailed after its rollback.

export type CopyOptions = {
  from: string;
  to: string;
  /** Rows per page read from SQLite and inserted into PostgreSQL. */
  batchSize?: number;
  migrationDirs?: { sqlite: string; postgres: string };
  print?: (line: string) => void;
};
export type TableCount = { table: string; source: number; target: number; seconds: number };
export type CopyReport = { ok: boolean; tables: TableCount[]; rows: number; seconds: number; rowsPerSecond: number };

// The migrations this version ships, per store: GET /api/ready compares them with the applied ones too.
export { MIGRATION_DIRS, migrationGap, migrationsIn } from "./migrations";

export class CopyFailed extends Error {}

export const DEFAULT_BATCH = 2000;
const PROGRESS_EVERY = 100_000;

// A wrong URL is named by its scheme only: it may be any kind of URL, with a password in it.
const schemeOf = (url: string) => JSON.stringify(/^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? url.slice(0, 12));

function checkUrls(from: string, to: string) {
  if (!from.startsWith("file:") || storeOf(from) !== "sqlite") {
    throw new BadRequest(`--from must be a SQLite URL such as file:./data/tally.db, got a ${schemeOf(from)} URL`);
  }
  if (storeOf(to) !== "postgres") {
    throw new BadRequest(
      `--to must be a PostgreSQL URL such as postgresql://user@host:5432/tally, got a ${schemeOf(to)} URL`,
    );
  }
}

function checkMigrations(
  source: Source,
  target: string[] | null,
  dirs: { sqlite: string; postgres: string },
  shownTo: string,
  from: string,
) {
  const migrate = `DATABASE_URL=${shownTo} npm run db:migrate`;
  if (target === null)
    throw new BadRequest(`the target ${shownTo} is not migrated (no _prisma_migrations table): run ${migrate} first`);
  const t = migrationGap(target, migrationsIn(dirs.postgres));
  if (t?.missing.length)
    throw new BadRequest(`the target lacks migrations ${t.missing.join(", ")}: run ${migrate} first`);
  if (t)
    throw new BadRequest(
      `the target has migrations this version of Tally does not know (${t.unknown.join(", ")}): copy with the Tally version that made them`,
    );
  const s = migrationGap(source.appliedMigrations(), migrationsIn(dirs.sqlite));
  if (s?.missing.length) {
    throw new BadRequest(
      `the source lacks migrations ${s.missing.join(", ")}: bring it to this version first (DATABASE_URL=${from} npm run db:migrate)`,
    );
  }
  if (s)
    throw new BadRequest(
      `the source has migrations this version of Tally does not know (${s.unknown.join(", ")}): copy with the Tally version that made them`,
    );
}

/**
 * The tables to copy, in copy order, checked against both databases. Each keeps the columns the
 * source has; a column only the target has (a PostgreSQL-only column such as a default-filled
 * transaction id) is left to its default, and a source column the target lacks is refused.
 */
function plan(source: Source, catalog: Map<string, Table>, print: (l: string) => void): Table[] {
  const missing = MODEL_TABLES.filter((m) => !catalog.has(m));
  if (missing.length) throw new BadRequest(`the target has no table for ${missing.join(", ")}: migrate it first`);
  const extra = [...source.tables].filter((t) => !MODEL_TABLES.includes(t));
  if (extra.length)
    throw new BadRequest(`the source has tables Tally's models do not (${extra.join(", ")}): they would not be copied`);
  const tables = MODEL_TABLES.map((m) => {
    const t = catalog.get(m)!;
    if (!source.tables.has(t.name)) throw new BadRequest(`the source has no table ${t.name}`);
    if (t.primaryKey.length === 0)
      throw new BadRequest(`${t.name} has no primary key on the target: cannot page through it`);
    const src = new Set(source.columns(t.name));
    const lacking = [...src].filter((c) => !t.columns.some((x) => x.name === c));
    if (lacking.length)
      throw new BadRequest(`the target's ${t.name} has no column ${lacking.join(", ")}: migrate the target first`);
    for (const c of t.columns.filter((x) => !src.has(x.name))) {
      if (!c.hasDefault && !c.nullable)
        throw new BadRequest(`${t.name}.${c.name} exists only on the target and has no default: cannot fill it`);
      print(`note: ${t.name}.${c.name} exists only on PostgreSQL; its default fills it`);
    }
    const columns = t.columns.filter((c) => src.has(c.name));
    for (const c of columns) {
      if (!isSupportedType(c.type))
        throw new BadRequest(`${t.name}.${c.name} has type ${c.type} on the target, which db:copy does not convert`);
    }
    return { ...t, columns };
  });
  return copyOrder(tables);
}

async function copyTable(
  c: pg.Client,
  source: Source,
  t: Table,
  batch: number,
  print: (l: string) => void,
): Promise<number> {
  const sql = insertSql(t);
  const types = t.columns.map((c) => c.type as ColumnType); // checked by plan()
  let done = 0;
  let shown = 0;
  for (const page of source.pages(t, batch)) {
    const columns: unknown[][] = t.columns.map(() => new Array(page.length));
    for (let r = 0; r < page.length; r++) {
      const row = page[r];
      for (let i = 0; i < t.columns.length; i++) {
        try {
          columns[i][r] = convert(types[i], row[i]);
        } catch (err) {
          if (!(err instanceof BadValue)) throw err;
          const key = t.primaryKey
            .map((k) => `${k}=${String(row[t.columns.findIndex((x) => x.name === k)])}`)
            .join(", ");
          throw new CopyFailed(`${t.name}.${t.columns[i].name} (row ${key}): ${err.message}`);
        }
      }
    }
    done += await insertColumns(c, sql, columns);
    if (done - shown >= PROGRESS_EVERY) {
      print(`    ${t.name}: ${n(done)} rows…`);
      shown = done;
    }
  }
  return done;
}

export async function copyDatabase(o: CopyOptions): Promise<CopyReport> {
  const print = o.print ?? (() => undefined);
  const batch = o.batchSize ?? DEFAULT_BATCH;
  if (!Number.isInteger(batch) || batch < 1)
    throw new BadRequest(`the batch size must be a whole number >= 1, got ${batch}`);
  checkUrls(o.from, o.to);
  const shownTo = redactUrl(o.to);
  print(`db:copy: from ${o.from} (SQLite) to ${shownTo} (PostgreSQL)`);
  const source = openSource(o.from);
  let c: pg.Client | undefined;
  try {
    c = await connectTarget(o.to, shownTo);
    checkMigrations(source, await appliedMigrations(c), o.migrationDirs ?? MIGRATION_DIRS, shownTo, o.from);
    const tables = plan(source, await readCatalog(c), print);
    print(
      `checked: both databases at this version's schema; ${tables.length} tables, copy order ${tables.map((t) => t.name).join(", ")}`,
    );
    return await copyAll(c, source, tables, batch, print);
  } finally {
    source.close();
    await c?.end().catch(() => undefined);
  }
}

async function copyAll(
  c: pg.Client,
  source: Source,
  tables: Table[],
  batch: number,
  print: (l: string) => void,
): Promise<CopyReport> {
  const started = performance.now();
  await c.query("BEGIN");
  let current = "";
  try {
    await lockTables(c, tables);
    const full = await nonEmpty(c, tables);
    if (full.length)
      throw new Conflict(
        `the target is not empty (rows in ${full.join(", ")}): db:copy only fills an empty database; nothing was written`,
      );
    const counts: TableCount[] = [];
    for (const t of tables) {
      current = t.name;
      const t0 = performance.now();
      const expected = source.count(t.name);
      print(`  ${t.name}: copying ${n(expected)} rows`);
      await copyTable(c, source, t, batch, print);
      const seqs = await advanceSequences(c, t);
      const seconds = (performance.now() - t0) / 1000;
      counts.push({ table: t.name, source: expected, target: await countRows(c, t), seconds });
      const next = seqs.map((s) => `; next ${s.column} ${n(s.next)}`).join("");
      print(`  ${t.name}: ${n(expected)} rows in ${seconds.toFixed(1)} s${next}`);
    }
    current = "";
    const ok = counts.every((x) => x.source === x.target);
    print("");
    for (const l of table(
      ["table", "source rows", "target rows", "check"],
      counts.map((x) => [x.table, n(x.source), n(x.target), x.source === x.target ? "ok" : "MISMATCH"]),
    ))
      print(l);
    if (!ok) {
      await c.query("ROLLBACK");
      print("\nrow counts differ: rolled back, the target is empty again");
      return summary(false, counts, started);
    }
    await c.query("COMMIT");
    const report = summary(true, counts, started);
    print(
      `\ncopied ${n(report.rows)} rows in ${report.seconds.toFixed(1)} s (${n(report.rowsPerSecond)} rows/s); committed.`,
    );
    return report;
  } catch (err) {
    await c.query("ROLLBACK").catch(() => undefined);
    if (err instanceof Conflict || err instanceof BadRequest) throw err;
    const where = current ? ` while copying ${current}` : "";
    throw new CopyFailed(
      `copy failed${where}: ${(err as Error).message}. Rolled back: the target is as empty as before.`,
      { cause: err },
    );
  }
}

function summary(ok: boolean, tables: TableCount[], started: number): CopyReport {
  const seconds = (performance.now() - started) / 1000;
  const rows = tables.reduce((s, t) => s + t.target, 0);
  return { ok, tables, rows, seconds, rowsPerSecond: Math.round(rows / Math.max(seconds, 1e-6)) };
}
