// Starts the slowest test files first. Vitest orders files by the durations of the last run when it
// has them and by file size when it does not (a clean clone in CI), which put the one-minute chaos
// files last: the run then waited a minute on one of its three workers with the others idle.
// The list is measured (`--reporter=json`), slowest first; a file missing from it only runs later.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// Measured on both stores (the PostgreSQL run holds the test/postgres-* files).
const SLOWEST_FIRST = [
  "test/hostile-input.test.ts",
  "test/postgres-chaos.test.ts",
  "test/postgres-chaos-runs.test.ts",
  "test/postgres-db-copy.test.ts",
  "test/postgres-db-migration.test.ts",
  "test/chaos-polling.test.ts",
  "test/chaos.test.ts",
  "test/infra-faults.test.ts",
  "test/route-roles.test.ts",
  "test/chaos-runs.test.ts",
  "test/fuzz-receiver.test.ts",
  "test/runs-api.test.ts",
  "test/fuzz-operator-api.test.ts",
  "test/shared-budget.test.ts",
  "test/economy.test.ts",
  "test/server.test.ts",
  "test/scheduler-roles.test.ts",
  "test/shared-collection-schedule.test.ts",
  "test/worker-metrics.test.ts",
  "test/safety-nets-cli.test.ts",
  "test/budget-priority.test.ts",
  "test/postgres-dashboard.test.ts",
  "test/safety-nets-server.test.ts",
  "test/auth.test.ts",
  "test/route-protection.test.ts",
  "test/results-api.test.ts",
  "test/results-export.test.ts",
  "test/dashboard-unauthorized-chart.test.ts",
  "test/safety-nets-replay-poll.test.ts",
  "test/layering.test.ts",
];

export class SlowestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rest = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOWEST_FIRST.indexOf(relative(f.project.config.root, f.moduleId));
      return i < 0 ? SLOWEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the files outside the list keep vitest's order.
    return rest.sort((a, b) => rank(a) - rank(b));
  }
}
