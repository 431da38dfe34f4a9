import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

// End-to-end tests against Tally's server (what `npm start` runs), in the system's Chromium when there
// is one. Each worker starts its own server on a free local port with a fresh database in a temp
// folder (e2e/fixtures.ts, scripts/e2e-server.mjs), so the workers do not share simulator knobs,
// secrets or dead letters. E2E_WORKERS sets how many run at once (default 2: on the two cores here
// two workers took 6.5 min against 8.2 for one, each test about 1.6 times as slow, hence the
// longer timeouts).
const systemChromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
const executablePath = process.env.CHROMIUM_PATH ?? systemChromium;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // One retry, reported as "flaky" in the list: Chromium on a loaded two-core machine now and then
  // hangs closing a context after a test has passed (a CI run: "Tearing down context exceeded the test
  // timeout", the page already showing what the test expected). A test that fails twice fails the run.
  retries: 1,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
});
