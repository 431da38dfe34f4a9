// Serves the built app for Playwright: a fresh database in a temp folder, migrated, then Tally's
// server as `npm start` runs it.
// Refuses to run against any database outside the temp folder.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { serverBundle } from "./server-bundle.mjs";

const port = process.argv[2] ?? "3200";
const dir = mkdtempSync(path.join(tmpdir(), "tally-e2e-"));
const databaseUrl = `file:${path.join(dir, "tally.db")}`;
if (!databaseUrl.startsWith(`file:${tmpdir()}`)) {
  console.error(`Refusing to run end-to-end tests against a non-temporary database: ${databaseUrl}`);
  process.exit(1);
}
export const E2E_PASSWORD = "e2e operator password";
const env = {
  ...process.env,
  NODE_ENV: "production",
  PORT: port,
  DATABASE_URL: databaseUrl,
  TALLY_OPERATOR_PASSWORD: process.env.E2E_PASSWORD ?? E2E_PASSWORD,
  TALLY_HOST: "127.0.0.1",
  TALLY_PUBLIC_URL: `http://127.0.0.1:${port}`,
  TALLY_DEMO_TRAFFIC: process.env.TALLY_DEMO_TRAFFIC ?? "on",
  // A failed outbound event waits minutes for its retry, so the Outbound spec's replay is what sends it.
  TALLY_FORWARD_RETRY_INITIAL_MS: "600000",
};
const migrate = spawnSync("npx", ["prisma", "migrate", "deploy"], { env, stdio: "inherit" });
if (migrate.status !== 0) process.exit(migrate.status ?? 1);
const server = spawn(process.execPath, [serverBundle], { env, stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.kill(sig));
server.on("exit", (code) => process.exit(code ?? 0));
