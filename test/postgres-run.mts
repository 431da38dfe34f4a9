// Which test files the PostgreSQL run (vitest.postgres.config.mts) leaves out. By default every test
// file runs on both stores; a file stays on SQLite only if
//   - it never reaches a database: neither it nor any module it imports (followed through the repo's own
//     files) loads a database driver (better-sqlite3, pg, a Prisma adapter or client) — a pure unit test
//     would only run twice for nothing; or
//   - it is named in SQLITE_ONLY below, with the reason it cannot or need not run on PostgreSQL.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Test files that reach a database but run on SQLite only, each with its reason. Keep this short. */
export const SQLITE_ONLY: Record<string, string> = {
  "lib/outbound/sinks/brokers.test.ts":
    "tests the MySQL, Redis, RabbitMQ, NATS and S3 services' side of the sinks, not Tally's store; lib/outbound/sinks/postgres-sink.test.ts runs the same scenarios on both stores",
  "test/chaos.test.ts":
    "chooses its store itself (SQLite, one process); the PostgreSQL chaos run is test/postgres-chaos.test.ts",
  "lib/runtime/direct-sqlite-transaction.test.ts":
    "tests the worker's synchronous SQLite transaction on the app's better-sqlite3 connection (lib/db.ts); on PostgreSQL the stored extract goes through the ORM's transaction",
  "test/db-transactions.test.ts":
    "tests SQLite's BEGIN IMMEDIATE (lib/db.ts) with a second better-sqlite3 connection on the same file; PostgreSQL has no such lock",
  "test/results-feed-concurrency.test.ts":
    "writer processes commit into one SQLite file (test/results-writer.mjs); the PostgreSQL twin is test/postgres-results-feed.test.ts",
  "test/chaos-runs.test.ts":
    "chooses its store itself (SQLite, one process); the runs mode on PostgreSQL with two servers and a worker is test/postgres-chaos-runs.test.ts",
  "test/chaos-polling.test.ts":
    "chooses its store itself (SQLite); a second several-minute chaos run on PostgreSQL would add minutes to npm test",
};

const DRIVERS = /^(better-sqlite3|pg|@prisma\/adapter-[\w-]+|@prisma\/client)$|generated\/prisma(-pg)?\//;
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
const EXTENSIONS = ["", ".ts", ".tsx", ".mts", ".mjs", ".js", "/index.ts", "/index.mts"];

function resolveLocal(root: string, from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith("@/")) base = path.join(root, spec.slice(2));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else return null;
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    if (existsSync(candidate) && !candidate.endsWith("/") && /\.(m?[tj]sx?)$/.test(candidate)) return candidate;
  }
  return null;
}

/** Whether `file` (absolute), or anything it imports through the repo's own modules, loads a database driver. */
export function reachesDatabase(root: string, file: string, seen = new Map<string, boolean>()): boolean {
  const known = seen.get(file);
  if (known !== undefined) return known;
  seen.set(file, false); // cycles
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    if (DRIVERS.test(spec)) {
      seen.set(file, true);
      return true;
    }
    const local = resolveLocal(root, file, spec);
    if (local && reachesDatabase(root, local, seen)) {
      seen.set(file, true);
      return true;
    }
  }
  return false;
}

/** The test files (relative to `root`) the PostgreSQL run leaves out: SQLITE_ONLY and the pure unit tests. */
export function sqliteOnlyFiles(root: string, testFiles: string[]): string[] {
  for (const listed of Object.keys(SQLITE_ONLY))
    if (!testFiles.includes(listed))
      throw new Error(`test/postgres-run.mts: SQLITE_ONLY names ${listed}, which is gone`);
  const seen = new Map<string, boolean>();
  return testFiles.filter((f) => f in SQLITE_ONLY || !reachesDatabase(root, path.join(root, f), seen));
}

/** Every `*.test.ts` under `dirs` (relative to `root`), as vitest.config.mts's include finds them. */
export function testFiles(root: string, dirs = ["lib", "test", "scripts"]): string[] {
  return dirs
    .flatMap((d) =>
      (readdirSync(path.join(root, d), { recursive: true }) as string[]).map((f) =>
        path.join(d, f).split(path.sep).join("/"),
      ),
    )
    .filter((f) => f.endsWith(".test.ts"))
    .sort();
}
