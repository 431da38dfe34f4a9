// Prepares the database before the server starts: checks Node's version and the configuration, creates
// the data folder for SQLite and applies the store's migrations (`prisma migrate deploy`, offline).
import { spawnSync } from "node:child_process";
import { accessSync, constants, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { configOrExit, redactUrl, storeOf } from "../lib/config";
import { secureSqliteFile } from "../lib/runtime";
import { checkNodeVersion } from "./node-version.mjs";

checkNodeVersion();
const config = configOrExit();
if (storeOf(config.DATABASE_URL) === "sqlite") {
  const file = config.DATABASE_URL.replace(/^file:/, "");
  const dir = path.dirname(path.resolve(file));
  // A folder this process cannot write (its owner, a read-only mount): one line saying so, not the
  // migration tool's pages about a database it could not open.
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    process.stderr.write(
      `Tally cannot start: the folder ${dir} is not writable by this process (${code}). DATABASE_URL=${redactUrl(config.DATABASE_URL)} keeps the SQLite database there: fix the folder's owner or permissions (or the volume's mount) and start again.\n`,
    );
    process.exit(1);
  }
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
