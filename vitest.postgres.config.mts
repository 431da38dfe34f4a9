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
    exclude: ["e2e/**", "node_modules/**"],
    include: [
      // receiver and server
      "test/receiver.test.ts",
      "test/receiver-process.test.ts",
      "test/server.test.ts",
      "test/server-shutdown.test.ts",
      "test/hostile-input.test.ts",
      // queue and worker
      "lib/queue/queue.test.ts",
      "test/queue-wake.test.ts",
      "lib/worker/*.test.ts",
      "lib/jobs/*.test.ts",
      // safety nets, subscriptions and rotation
      "test/safety-nets-*.test.ts",
      "lib/subscriptions/*.test.ts",
      "test/secrets.test.ts",
      "test/retention.test.ts",
      // auth
      "test/auth.test.ts",
      "test/route-protection.test.ts",
      "test/shared-login-throttle.test.ts",
      // results out, scheduling, shared state
      "lib/outbound/*.test.ts",
      "lib/alerts/*.test.ts",
      "test/metrics.test.ts",
      "test/worker-metrics.test.ts",
      "test/cron-routes.test.ts",
      "test/scheduler-roles.test.ts",
      "test/shared-budget.test.ts",
      "test/budget-priority.test.ts",
      "test/accounts.test.ts",
      "test/bootstrap-race.test.ts",
      "test/route-roles.test.ts",
      "test/user-cli.test.ts",
      "test/postgres-*.test.ts",
      "test/economy.test.ts",
      "test/jobs-cancel-export.test.ts",
      // issue 27's security findings
      "test/security-findings.test.ts",
      "test/settings-redaction.test.ts",
    ],
  },
});
