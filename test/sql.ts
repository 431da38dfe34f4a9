// Raw SQL against a test's database on either store, for assertions on stored rows and for setting up
// rows the app only writes through paths a test does not want to drive. One dialect is written, the
// SQLite one the tests were first written in, and made to run on PostgreSQL:
// - `?` placeholders (numbered for PostgreSQL); Date parameters stored as each store stores them;
// - mixed-case identifiers (`QueueItem`, `jobId`) quoted outside string literals, since PostgreSQL
//   folds unquoted names to lower case — all-caps keywords and lower-case names are left alone;
// - rows come back as SQLite shows them: booleans as 1/0, counts as numbers, timestamps as ISO text.
// Use CURRENT_TIMESTAMP (not datetime('now')) and true/false (not 1/0 for booleans) in statements.
import Database from "better-sqlite3";
import pg from "pg";
import { sqliteDate } from "@/lib/webhooks/store-sqlite";

export type Row = Record<string, unknown>;

export type TestSql = {
  get<T = Row>(text: string, ...params: unknown[]): Promise<T | undefined>;
  all<T = Row>(text: string, ...params: unknown[]): Promise<T[]>;
  /** Runs a statement; the number of rows it changed. */
  run(text: string, ...params: unknown[]): Promise<number>;
  /** `SELECT COUNT(*) FROM table WHERE …` as a number. */
  count(table: string, where?: string, ...params: unknown[]): Promise<number>;
  close(): Promise<void>;
};

/** Opens `url` (a TestDb's or a server's DATABASE_URL: `file:…` or `postgresql://…`). */
export async function openSql(url: string, opts: { readonly?: boolean } = {}): Promise<TestSql> {
  return url.startsWith("file:") ? sqlite(url.slice("file:".length), opts.readonly ?? false) : await postgres(url);
}

function sqlite(file: string, readonly: boolean): TestSql {
  const conn = new Database(file, { readonly, timeout: 5000 });
  const args = (params: unknown[]) =>
    params.map((p) => (p instanceof Date ? sqliteDate(p) : typeof p === "boolean" ? Number(p) : p));
  const api: TestSql = {
    get: async <T>(text: string, ...params: unknown[]) => conn.prepare(text).get(...args(params)) as T | undefined,
    all: async <T>(text: string, ...params: unknown[]) => conn.prepare(text).all(...args(params)) as T[],
    run: async (text, ...params) =>
      params.length === 0 && text.includes(";")
        ? (conn.exec(text), 0)
        : conn.prepare(text).run(...args(params)).changes,
    count: async (table, where = "1=1", ...params) =>
      (conn.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get(...args(params)) as { n: number }).n,
    close: async () => void conn.close(),
  };
  return api;
}

async function postgres(url: string): Promise<TestSql> {
  const types = {
    getTypeParser(oid: number, format?: "text" | "binary") {
      if (oid === pg.types.builtins.INT8) return (v: string) => Number(v);
      if (oid === pg.types.builtins.BOOL) return (v: string) => (v === "t" ? 1 : 0);
      if (oid === pg.types.builtins.TIMESTAMP) return (v: string) => new Date(`${v.replace(" ", "T")}Z`).toISOString();
      if (oid === pg.types.builtins.TIMESTAMPTZ) return (v: string) => new Date(v).toISOString();
      return format === "binary" ? pg.types.getTypeParser(oid, "binary") : pg.types.getTypeParser(oid, "text");
    },
  };
  const client = new pg.Client({ connectionString: url, types: types as pg.CustomTypesConfig });
  await client.connect();
  const query = async (text: string, params: unknown[]) => {
    // Without parameters, the simple protocol: it takes several statements at once.
    if (params.length === 0) return client.query(translate(text));
    return client.query(
      translate(text),
      params.map((p) => (p instanceof Date ? p.toISOString() : p)),
    );
  };
  return {
    get: async <T>(text: string, ...params: unknown[]) => (await query(text, params)).rows[0] as T | undefined,
    all: async <T>(text: string, ...params: unknown[]) => (await query(text, params)).rows as T[],
    run: async (text, ...params) => (await query(text, params)).rowCount ?? 0,
    count: async (table, where = "1=1", ...params) =>
      Number((await query(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, params)).rows[0]?.n ?? 0),
    close: () => client.end(),
  };
}

/** SQLite-flavoured test SQL → PostgreSQL: numbered placeholders, mixed-case names quoted. */
export function translate(text: string): string {
  let n = 0;
  // Split into string literals ('…') and the code around them; only the code is rewritten.
  return text
    .split(/('(?:[^']|'')*')/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/\?/g, () => `$${++n}`)
            .replace(/(?<!["\w$])([A-Za-z_]\w*)(?!["\w])/g, (name) =>
              /[a-z]/.test(name) && /[A-Z]/.test(name) ? `"${name}"` : name,
            ),
    )
    .join("");
}
