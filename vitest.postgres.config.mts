// The test files on PostgreSQL (`npx vitest run --config vitest.postgres.config.mts`; npm test runs it
// when a server answers at TALLY_TEST_POSTGRES_URL or 127.0.0.1:5432). Every test file that reaches a
// database runs here too, by default; the exceptions, each with its reason, are in test/postgres-run.mts
// (SQLITE_ONLY), and pure unit tests that never load a database driver run on SQLite's side only.
// Each test file gets a database of its own, copied from a migrated template (test/global-setup.ts).
import { defineConfig } from "vitest/config";
import base from "./vitest.config.mts";
import { sqliteOnlyFiles, testFiles } from "./test/postgres-run.mts";

process.env.TALLY_TEST_STORE = "postgres";

const root = import.meta.dirname;

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // The same files as on SQLite (test/postgres-* included), less the SQLite-only ones.
    exclude: ["e2e/**", "node_modules/**", "test/containers/**", ...sqliteOnlyFiles(root, testFiles(root))],
  },
});
