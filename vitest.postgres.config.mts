// The integration tests that run on PostgreSQL too (`npx vitest run --config vitest.postgres.config.mts`;
// npm test runs them when a server answers at TALLY_TEST_POSTGRES_URL or 127.0.0.1:5432). Each test
// file gets a database of its own, copied from a migrated template (test/global-setup.ts).
import { defineConfig } from "vitest/config";
import base from "./vitest.config.mts";

process.env.TALLY_TEST_STORE = "postgres";

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // lib/worker/worker.test.ts is not here yet: on PostgreSQL its shutdown case finds the items
    // stored instead of handed back — the first item finishes before the platform turns slow, and
    // the in-flight handlers return normally after the shutdown aborted their signal, so they are
    // acknowledged (under investigation; see issue 12's notes).
    exclude: ["e2e/**", "node_modules/**"],
    include: [
      "lib/queue/queue.test.ts",
      "lib/jobs/*.test.ts",
      "lib/forwarding/*.test.ts",
      "test/cron-routes.test.ts",
      "test/scheduler-roles.test.ts",
      "test/shared-budget.test.ts",
      "test/shared-login-throttle.test.ts",
      "test/postgres-*.test.ts",
      "test/jobs-cancel-export.test.ts",
    ],
  },
});
