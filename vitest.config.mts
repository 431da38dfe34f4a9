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
    // test/containers/ build and run images: vitest.containers.config.mts runs them.
    exclude: ["e2e/**", "node_modules/**", "test/postgres-*.test.ts", "test/containers/**"],
    environment: "node",
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // A worker process runs its files one after another with the modules it has loaded, instead of a
    // fresh process and module graph per file: evaluating lib/ and its drivers again for each of ~260
    // files was vitest's "import" phase, ~430 s of each store's run, now ~20 s. Each file brings its
    // own database, configuration and servers (test/db.ts, test/tally-server.ts) and cleans them up,
    // process.env included (test/s3.ts's useEnv); state a module keeps must be keyed by what it
    // belongs to (lib/scheduling/lease.ts: by database client), never assumed to be the only one.
    isolate: false,
    // Most files wait on servers, sockets and databases, not the CPU: three at a time on the two
    // cores here takes the SQLite run from about 6 minutes to about 2.
    maxWorkers: 3,
    sequence: { sequencer: SlowestFirst },
  },
});
