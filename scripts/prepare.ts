// Prepares the database before the server starts: checks Node's version and the configuration, creates
// the data folder for SQLite and applies the store's migrations (`prisma migrate deploy`, offline).
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { configOrExit, redactUrl, storeOf } from "../lib/config";
import { secureSqliteFile } from "../lib/runtime";
import { checkNodeVersion } from "./node-version.mjs";

checkNodeVersion();
const config = configOrExit();
if (storeOf(config.DATABASE_URL) === "sqlite") {
  const file = config.DATABASE_URL.replace(/^file:/, "");
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // Made 0600 before the migration creates it: it will hold password hashes and secrets.
  secureSqliteFile(config.DATABASE_URL);
}
// Prisma's CLI run by this Node directly, not through npx: the container image has no npm to ask.
const prismaCli = createRequire(path.join(process.cwd(), "package.json")).resolve("prisma/build/index.js");
const run = spawnSync(process.execPath, [prismaCli, "migrate", "deploy"], {
  stdio: ["ignore", "pipe", "pipe"],
  env: { ...process.env, DATABASE_URL: config.DATABASE_URL },
  encoding: "utf8",
});
if (run.status !== 0) {
  process.stderr.write(
    `Database migration failed for ${redactUrl(config.DATABASE_URL)}:\n${run.stdout}\n${run.stderr}\n`,
  );
  process.exit(1);
}
process.stdout.write(`Database ready: ${redactUrl(config.DATABASE_URL)}\n`);
