// Seeds jobs and their results straight into SQLite (one transaction per call), in the format
// Prisma stores, for the results tests and `npm run bench:results`.
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

export function seedJob(sql: Database.Database, job: SeedJob): void {
  const at = sqliteDate(job.createdAt ?? Date.now());
  sql
    .prepare(
      `INSERT INTO "Job" ("id","kind","url","platformStatus","outcome","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?)`,
    )
    .run(job.id, job.kind ?? "crawl", job.url ?? null, job.status ?? "completed", job.outcome ?? "stored", at, at);
}

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

export function seedResults(sql: Database.Database, s: SeedResults): void {
  const insert =
    sql.prepare(`INSERT INTO "Result" ("jobId","itemKey","url","status","format","markdown","html","metadata","tokensCharged","createdAt")
    VALUES (?,?,?,'completed','markdown',?,?,?,1,?)`);
  const now = Date.now();
  sql.transaction(() => {
    for (let i = 0; i < s.count; i++) {
      const key = s.itemKey?.(i) ?? `https://site.example/${s.jobId}/page/${i}`;
      const meta = s.metadata ? s.metadata(i) : { depth: i % 4, title: `Page ${i}` };
      insert.run(
        s.jobId,
        key,
        key.startsWith("http") ? key : null,
        s.markdown?.(i) ?? `# Page ${i}\n\nBody of ${key}.`,
        s.html?.(i) ?? null,
        meta === null ? null : JSON.stringify(meta),
        sqliteDate(s.at?.(i) ?? now),
      );
    }
  })();
}
