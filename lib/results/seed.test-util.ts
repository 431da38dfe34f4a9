// Seeds jobs and their results straight into the database, in the format Prisma stores: through a
// test's TestSql on either store (insertJob, insertResults: the results tests), or synchronously into a
// better-sqlite3 connection, one transaction per call (seedJob, seedResults: `npm run bench:results`).
import type Database from "better-sqlite3";

export const sqliteDate = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

export type SeedJob = {
  id: string;
  kind?: string;
  url?: string;
  status?: string;
  outcome?: string;
  createdAt?: number;
};

export type SeedResults = {
  jobId: string;
  count: number;
  /** createdAt of row i (ms); default: now. */
  at?: (i: number) => number;
  itemKey?: (i: number) => string;
  markdown?: (i: number) => string | null;
  html?: (i: number) => string | null;
  metadata?: (i: number) => unknown;
};

/** test/sql.ts's TestSql, or anything that runs a statement with `?` placeholders and Date parameters. */
export type SeedSql = { run(text: string, ...params: unknown[]): Promise<number> };

const JOB_INSERT = `INSERT INTO "Job" ("id","kind","url","platformStatus","outcome","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?)`;
const RESULT_INSERT = `INSERT INTO "Result" ("jobId","itemKey","url","status","format","markdown","html","metadata","tokensCharged","createdAt") VALUES `;
const RESULT_VALUES = `(?,?,?,'completed','markdown',?,?,?,1,?)`;
const RESULTS_PER_STATEMENT = 500; // 7 parameters each: far below either store's limit

function jobRow(job: SeedJob): unknown[] {
  const at = new Date(job.createdAt ?? Date.now());
  return [job.id, job.kind ?? "crawl", job.url ?? null, job.status ?? "completed", job.outcome ?? "stored", at, at];
}

function resultRow(s: SeedResults, i: number, now: number): unknown[] {
  const key = s.itemKey?.(i) ?? `https://site.example/${s.jobId}/page/${i}`;
  const meta = s.metadata ? s.metadata(i) : { depth: i % 4, title: `Page ${i}` };
  return [
    s.jobId,
    key,
    key.startsWith("http") ? key : null,
    s.markdown?.(i) ?? `# Page ${i}\n\nBody of ${key}.`,
    s.html?.(i) ?? null,
    meta === null ? null : JSON.stringify(meta),
    new Date(s.at?.(i) ?? now),
  ];
}

/** One job row, through `sql` (either store). */
export async function insertJob(sql: SeedSql, job: SeedJob): Promise<void> {
  await sql.run(JOB_INSERT, ...jobRow(job));
}

/** `s.count` result rows, in order (ids ascending with i), through `sql` (either store). */
export async function insertResults(sql: SeedSql, s: SeedResults): Promise<void> {
  const now = Date.now();
  for (let from = 0; from < s.count; from += RESULTS_PER_STATEMENT) {
    const n = Math.min(RESULTS_PER_STATEMENT, s.count - from);
    const params = Array.from({ length: n }, (_, k) => resultRow(s, from + k, now)).flat();
    await sql.run(RESULT_INSERT + Array(n).fill(RESULT_VALUES).join(","), ...params);
  }
}

const sqliteParams = (row: unknown[]) => row.map((v) => (v instanceof Date ? sqliteDate(v.getTime()) : v));

export function seedJob(sql: Database.Database, job: SeedJob): void {
  sql.prepare(JOB_INSERT).run(...sqliteParams(jobRow(job)));
}

export function seedResults(sql: Database.Database, s: SeedResults): void {
  const insert = sql.prepare(RESULT_INSERT + RESULT_VALUES);
  const now = Date.now();
  sql.transaction(() => {
    for (let i = 0; i < s.count; i++) insert.run(...sqliteParams(resultRow(s, i, now)));
  })();
}

/**
 * On PostgreSQL the change feed shows a row once no transaction older than the one that wrote it is
 * still running anywhere on the server (lib/results/position.ts): on a shared test server, another
 * test's open transaction can hold seeded rows back a moment. Waits until every Result row is visible
 * to the feed; answers at once on SQLite (where `isPostgres` is false).
 */
export async function untilFeedShowsAll(
  sql: { get(text: string): Promise<Record<string, unknown> | undefined> },
  isPostgres: boolean,
  timeoutMs = 60_000,
): Promise<void> {
  if (!isPostgres) return;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await sql.get(
      `SELECT COUNT(*) AS n FROM "Result" WHERE "txid" >= pg_snapshot_xmin(pg_current_snapshot())`,
    );
    if (Number(row?.n) === 0) return;
    if (Date.now() > deadline) throw new Error("the feed's horizon did not pass the seeded results in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}
