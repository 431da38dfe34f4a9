// The whole suite, stopping at the first failing step: the static checks side by side (types, lint,
// layering, migration drift on SQLite and PostgreSQL, Chromium for the browser tests, promtool: each is one
// process on one core, so two cores do two at a time), then the build, then the unit and integration
// tests (vitest) on SQLite and on PostgreSQL side by side, then end-to-end tests (Playwright).
//
// The PostgreSQL steps run when a server answers at TALLY_TEST_POSTGRES_URL (default: the local
// server at 127.0.0.1:5432); without one they are skipped and the summary says so in capitals, unless
// TALLY_REQUIRE_POSTGRES=1 (CI sets it), which makes a missing server a failure.
//
// The container tests (test/containers: the image and compose.yaml under Podman) run beside the vitest
// runs when Podman works here; otherwise they are skipped the same way, unless TALLY_REQUIRE_PODMAN=1
// (CI sets it). Their Dockerfile is linted with the static checks (dockerfilelint).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { containerEngine } from "./image.mjs";

const POSTGRES_URL = process.env.TALLY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const SQLITE_DRIFT_URL = "file:./data/drift-check.db";

async function postgresAnswers() {
  const c = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

const drift = (dir) => [
  "prisma",
  "migrate",
  "diff",
  "--from-migrations",
  `${dir}/migrations`,
  "--to-schema-datamodel",
  `${dir}/schema.prisma`,
  "--exit-code",
];

const postgres = await postgresAnswers();
if (!postgres && process.env.TALLY_REQUIRE_POSTGRES === "1") {
  console.error(
    `✗ TALLY_REQUIRE_POSTGRES=1 but no PostgreSQL server answers at ${POSTGRES_URL.replace(/:[^:@/]*@/, ":***@")}`,
  );
  process.exit(1);
}

const podman = containerEngine({ ...process.env, TALLY_CONTAINER_ENGINE: "podman" });
if (!podman.engine && process.env.TALLY_REQUIRE_PODMAN === "1") {
  console.error(`✗ TALLY_REQUIRE_PODMAN=1 but Podman cannot run here: ${podman.reason}`);
  process.exit(1);
}

const checks = [
  ["types", "npx", ["tsc", "--noEmit"]],
  // Installs Debian's Chromium for the end-to-end tests if it is missing (network and disk, little CPU).
  ["chromium", "node", ["scripts/ensure-chromium.mjs"]],
  // Unpacks promtool from Debian's prometheus package if missing, for test/deploy-rules.test.ts.
  ["promtool", "node", ["scripts/ensure-promtool.mjs"]],
  ["lint", "npx", ["eslint", "--max-warnings", "0", "."]],
  ["format", "npx", ["prettier", "--check", "--log-level", "warn", "."]],
  [
    "layering",
    "npx",
    ["depcruise", "app", "components", "lib", "scripts", "server.ts", "--config", ".dependency-cruiser.cjs"],
  ],
  ["Dockerfile", "npx", ["dockerfilelint", "Dockerfile"]],
  ["migrations match the schema (SQLite)", "npx", drift("prisma"), { DATABASE_URL: SQLITE_DRIFT_URL }],
  ...(postgres
    ? [["migrations match the schema (PostgreSQL)", "npx", drift("prisma/postgres"), { DATABASE_URL: POSTGRES_URL }]]
    : []),
];
// Steps run in order; a step that is a list runs its parts side by side (each line prefixed with
// the part's name). The two vitest runs wait mostly on servers, sockets and databases, not the CPU,
// so side by side they take little longer than the slower one alone.
const vitestWorkers = ["--maxWorkers", postgres ? "2" : "3"];
const steps = [
  ["build", "npm", ["run", "build"]],
  [
    [
      "sqlite",
      "unit and integration tests (SQLite)",
      "npx",
      ["vitest", "run", ...vitestWorkers],
      { TALLY_TEST_STORE: "sqlite" },
    ],
    ...(postgres
      ? [
          [
            "postgres",
            "integration tests (PostgreSQL)",
            "npx",
            ["vitest", "run", "--config", "vitest.postgres.config.mts", ...vitestWorkers],
            { TALLY_TEST_POSTGRES_URL: POSTGRES_URL },
          ],
        ]
      : []),
    // Builds the image (a few minutes the first time, its layers cached after) and runs its containers.
    ...(podman.engine
      ? [
          [
            "containers",
            "container tests (Podman)",
            "npx",
            ["vitest", "run", "--config", "vitest.containers.config.mts"],
          ],
        ]
      : []),
  ],
  ["end-to-end tests", "npx", ["playwright", "test"]],
];

// NODE_COMPILE_CACHE: every Node process of the run (each test's Tally server, workers, tools) keeps
// V8's compiled code on disk, so the ~180 servers the suite starts compile the same bundles once.
const COMPILE_CACHE = path.resolve("node_modules/.cache/tally-node-compile-cache");
const envOf = (env) => ({
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? COMPILE_CACHE,
  ...env,
});
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Runs the checks two at a time, each one's output printed whole when it ends. */
async function runChecks() {
  const queue = [...checks];
  const failed = [];
  async function lane() {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [name, cmd, args, env = {}] = next;
      const t = Date.now();
      const child = spawn(cmd, args, { env: envOf(env), stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      const code = await new Promise((resolve) => child.on("close", (c, signal) => resolve(c ?? signal)));
      console.log(`\n▶ ${name}: ${cmd} ${args.join(" ")}\n${out.trimEnd()}`);
      if (code === 0) console.log(`✓ ${name} (${seconds(t)})`);
      else {
        console.error(`✗ ${name} failed (exit ${code})`);
        failed.push(name);
      }
    }
  }
  await Promise.all([lane(), lane()]);
  return failed;
}

mkdirSync("data", { recursive: true });
const started = Date.now();
const failedChecks = await runChecks();
if (failedChecks.length > 0) {
  console.error(`\n✗ ${failedChecks.join(", ")} failed`);
  process.exit(1);
}
const DIGEST_LINES = 80;
const plain = (line) => line.replace(/\x1b\[[0-9;]*m/g, "");

/**
 * Runs one command with its output prefixed by `tag`, line by line; resolves with its exit code and a
 * digest of its failures: vitest's "Failed Tests" section (its first DIGEST_LINES lines, then each
 * further FAIL line) and its summary lines. Parts side by side interleave their output, so a part that
 * fails early would have its failures buried under the other's; the digest is printed again at the end.
 */
function prefixed(tag, cmd, args, env) {
  const child = spawn(cmd, args, { env: envOf(env), stdio: ["ignore", "pipe", "pipe"] });
  const digest = [];
  let capturing = 0;
  const keep = (line) => {
    const text = plain(line);
    if (/Failed Tests \d+|Failed Suites \d+|Unhandled Errors?/.test(text)) capturing = DIGEST_LINES;
    if (capturing > 0) {
      capturing--;
      digest.push(text);
    } else if (/^\s*(FAIL\s|(Test Files|Tests|Errors)\s{2,})/.test(text)) digest.push(text);
  };
  for (const stream of [child.stdout, child.stderr]) {
    let rest = "";
    stream.on("data", (d) => {
      const lines = (rest + d).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        process.stdout.write(`[${tag}] ${line}\n`);
        keep(line);
      }
    });
    stream.on("end", () => {
      if (!rest) return;
      process.stdout.write(`[${tag}] ${rest}\n`);
      keep(rest);
    });
  }
  return new Promise((resolve) => child.on("close", (c, signal) => resolve({ code: c ?? signal, digest })));
}

for (const step of steps) {
  const t = Date.now();
  if (Array.isArray(step[0])) {
    for (const [tag, name, cmd, args] of step) console.log(`\n▶ [${tag}] ${name}: ${cmd} ${args.join(" ")}`);
    const ends = await Promise.all(step.map(([tag, , cmd, args, env = {}]) => prefixed(tag, cmd, args, env)));
    const codes = ends.map((e) => e.code);
    const failed = step.flatMap(([, name], i) => (codes[i] === 0 ? [] : [`${name} (exit ${codes[i]})`]));
    for (const [i, [, name]] of step.entries()) if (codes[i] === 0) console.log(`✓ ${name}`);
    for (const [i, [tag, name]] of step.entries()) {
      if (codes[i] === 0) continue;
      console.error(`\n▶ [${tag}] ${name}: its failures again (the output above interleaves the parts)`);
      for (const line of ends[i].digest) console.error(`[${tag}] ${line}`);
    }
    if (failed.length > 0) {
      console.error(`\n✗ ${failed.join(", ")} failed`);
      process.exit(1);
    }
    console.log(`✓ side by side in ${seconds(t)}`);
    continue;
  }
  const [name, cmd, args, env = {}] = step;
  console.log(`\n▶ ${name}: ${cmd} ${args.join(" ")}`);
  const res = spawnSync(cmd, args, { stdio: "inherit", env: envOf(env) });
  if (res.status !== 0) {
    console.error(`\n✗ ${name} failed (exit ${res.status ?? res.signal})`);
    process.exit(res.status || 1);
  }
  console.log(`✓ ${name} (${seconds(t)})`);
}
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
if (!podman.engine)
  console.log(
    `\nNOTE: THE CONTAINER TESTS WERE SKIPPED: ${podman.reason} (see docs/operations/deployment.md#container-image).`,
  );
if (!postgres)
  console.log(
    `\nNOTE: THE POSTGRESQL TESTS WERE SKIPPED: no server answers at ${POSTGRES_URL.replace(/:[^:@/]*@/, ":***@")} (set TALLY_TEST_POSTGRES_URL).`,
  );
