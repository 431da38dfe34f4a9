import path from "node:path";
import { defineConfig } from "vitest/config";
import { SlowestFirst } from "./test/sequencer.mts";

export default defineConfig({
  resolve: {
    alias: {
      "@": import.meta.dirname,
      // Next resolves "server-only" to a no-op on the server; outside Next it would throw.
      "server-only": path.join(import.meta.dirname, "test/server-only-stub.ts"),
    },
  },
  test: {
    include: ["lib/**/*.test.ts", "test/**/*.test.ts", "scripts/**/*.test.ts"],
    // test/postgres-*.test.ts need PostgreSQL: vitest.postgres.config.mts runs them.
    exclude: ["e2e/**", "node_modules/**", "test/postgres-*.test.ts"],
    environment: "node",
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most files wait on servers, sockets and databases, not the CPU: three at a time on the two
    // cores here takes the SQLite run from about 6 minutes to about 2.
    maxWorkers: 3,
    sequence: { sequencer: SlowestFirst },
  },
});
