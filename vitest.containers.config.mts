// The container tests (`npx vitest run --config vitest.containers.config.mts`; npm test runs them
// beside the other vitest runs): the image built from the Dockerfile on locally made bases, run with
// Podman, and compose.yaml under podman-compose. Skipped with one line where Podman cannot run;
// TALLY_REQUIRE_PODMAN=1 (CI) makes that a failure. One file at a time: each starts several containers.
import { defineConfig } from "vitest/config";
import base from "./vitest.config.mts";

export default defineConfig({
  // The same aliases (`@/`, server-only) as the other runs: the compose test signs with lib/signing.
  resolve: base.resolve,
  test: {
    include: ["test/containers/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/containers/setup.ts"],
    testTimeout: 300_000,
    hookTimeout: 900_000,
    pool: "forks",
    fileParallelism: false,
  },
});
