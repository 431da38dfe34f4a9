// `npm run db:migration -- <name>`: one model change, both stores. prisma/schema.prisma is the one
// source of truth; this command
//   1. regenerates prisma/postgres/schema.prisma from it (as `npm run db:schema` does),
//   2. diffs each store's existing migrations against its schema (`prisma migrate diff
//      --from-migrations … --to-schema-datamodel … --script`; the replay of the migrations needs a
//      shadow database, which for PostgreSQL is created on the server at TALLY_TEST_POSTGRES_URL),
//   3. writes prisma/migrations/<ts>_<name>/ and prisma/postgres/migrations/<ts>_<name>/ with the same
//      UTC timestamp and name, so the two histories stay 1:1 (test/migration-histories.test.ts). A store
//      without a change gets a migration that only says so, for the same reason;
//   4. checks that both histories now reproduce their schemas (the drift check of npm test),
//   5. regenerates both Prisma clients (skip with --skip-generate).
// Exit codes: 0 migration written, or nothing to migrate (both stores already match: nothing written);
// 1 failure (no PostgreSQL server, a Prisma error, a written migration that does not match);
// 2 usage error (bad or already used name, unknown option).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { PRISMA_DIR, writePostgresSchema } from "./postgres-schema.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const PRISMA_BIN = path.join(root, "node_modules", ".bin", "prisma");
const EMPTY_DIFF = "-- This is an empty migration.";

export const NAME_PATTERN = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
export const MAX_NAME_LENGTH = 60;

const USAGE = `Usage: npm run db:migration -- <name> [--skip-generate] [--prisma-dir <dir>]

  <name>             what the migration does, in snake_case: add_job_notes, index_result_created_at
  --skip-generate    do not regenerate the Prisma clients afterwards
  --prisma-dir <dir> work on another copy of the prisma/ folder (tests); default: ./prisma

Edit prisma/schema.prisma first (PostgreSQL-only lines as \`// @postgres …\` comments in it); this
command writes the PostgreSQL schema and one migration per store, with the same timestamp and name.
Needs a PostgreSQL server for the PostgreSQL diff: TALLY_TEST_POSTGRES_URL, default
postgresql://postgres@127.0.0.1:5432/postgres.`;

/** Why `name` cannot name a migration, or null when it can. */
export function nameProblem(name) {
  if (!name) return "a migration name is required";
  if (name.length > MAX_NAME_LENGTH) return `"${name}" is longer than ${MAX_NAME_LENGTH} characters`;
  if (!NAME_PATTERN.test(name))
    return `"${name}" is not snake_case: use lower-case letters, digits and single underscores, starting with a letter (e.g. add_job_notes)`;
  return null;
}

const TIMESTAMP = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})_/;
const stamp = (d) => d.toISOString().replace(/\D/g, "").slice(0, 14);

/** `<UTC yyyymmddHHMMSS>` for now, or one second after the latest existing migration if that is later
 * (a migration must sort after every one before it, whatever the clock says). */
export function migrationTimestamp(existing, now = new Date()) {
  let latest = null;
  for (const folder of existing) {
    const m = TIMESTAMP.exec(folder);
    if (!m) continue;
    const t = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
    if (latest === null || t > latest) latest = t;
  }
  const t = latest !== null && latest >= now.getTime() - (now.getTime() % 1000) ? latest + 1000 : now.getTime();
  return stamp(new Date(t));
}

export const migrationFolders = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort()
    : [];

function run(args, env) {
  return new Promise((resolve) => {
    const child = spawn(PRISMA_BIN, args, {
      cwd: root,
      env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const quiet = (s) =>
  s
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("Loaded Prisma config"))
    .join("\n");

async function postgresAnswers(url) {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query("SELECT 1");
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  } finally {
    await c.end().catch(() => undefined);
  }
}

const redact = (url) => url.replace(/:[^:@/]*@/, ":***@");

/** Parses argv; throws a usage message on a bad one. */
export function parseArgs(argv) {
  const opts = { name: null, prismaDir: PRISMA_DIR, generate: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--skip-generate") opts.generate = false;
    else if (a === "--prisma-dir") {
      if (!argv[i + 1]) throw new Error("--prisma-dir needs a folder");
      opts.prismaDir = path.resolve(argv[++i]);
    } else if (a === "-h" || a === "--help") opts.help = true;
    else if (a.startsWith("-")) throw new Error(`unknown option ${a}`);
    else if (opts.name !== null) throw new Error(`one name only (got "${opts.name}" and "${a}")`);
    else opts.name = a;
  }
  return opts;
}

async function main(argv) {
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    console.error(`✗ ${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  const problem = nameProblem(opts.name);
  if (problem) {
    console.error(`✗ ${problem}\n\n${USAGE}`);
    return 2;
  }
  const rel = (p) => {
    const r = path.relative(process.cwd(), p);
    return r.startsWith("..") ? p : r || ".";
  };
  const stores = [
    {
      label: "SQLite",
      schema: path.join(opts.prismaDir, "schema.prisma"),
      migrations: path.join(opts.prismaDir, "migrations"),
    },
    {
      label: "PostgreSQL",
      schema: path.join(opts.prismaDir, "postgres", "schema.prisma"),
      migrations: path.join(opts.prismaDir, "postgres", "migrations"),
    },
  ];
  const existing = stores.flatMap((s) => migrationFolders(s.migrations));
  const taken = existing.find((f) => f.replace(TIMESTAMP, "") === opts.name);
  if (taken) {
    console.error(`✗ a migration named "${opts.name}" exists already (${taken}): choose another name`);
    return 2;
  }

  console.log(`New migration "${opts.name}" for both stores, from ${rel(stores[0].schema)}\n`);
  const regenerated = writePostgresSchema(opts.prismaDir);
  console.log(
    regenerated
      ? `✓ regenerated ${rel(stores[1].schema)} from ${rel(stores[0].schema)}`
      : `✓ ${rel(stores[1].schema)} is up to date`,
  );

  const postgresUrl = process.env.TALLY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const down = await postgresAnswers(postgresUrl);
  if (down) {
    console.error(
      `✗ no PostgreSQL server answers at ${redact(postgresUrl)} (${down}).\n` +
        `  The PostgreSQL migration is computed by replaying its history in a scratch (shadow) database there.\n` +
        `  Start one, or point TALLY_TEST_POSTGRES_URL at one (any database on it; the user must be allowed to create databases).`,
    );
    return 1;
  }

  const scratch = mkdtempSync(path.join(tmpdir(), "tally-db-migration-"));
  try {
    stores[0].env = { DATABASE_URL: `file:${path.join(scratch, "scratch.db")}` };
    stores[1].env = { DATABASE_URL: postgresUrl };
    const diffArgs = (s, mode) => [
      "migrate",
      "diff",
      "--from-migrations",
      s.migrations,
      "--to-schema-datamodel",
      s.schema,
      mode,
    ];

    console.log("… comparing each store's migrations with its schema (about half a minute)");
    const diffs = await Promise.all(stores.map((s) => run(diffArgs(s, "--script"), s.env)));
    for (const [i, d] of diffs.entries()) {
      if (d.code !== 0) {
        console.error(`✗ prisma migrate diff failed for ${stores[i].label}:\n${quiet(d.stderr + d.stdout)}`);
        return 1;
      }
      stores[i].sql = d.stdout.trim() === EMPTY_DIFF ? null : d.stdout.trimEnd() + "\n";
    }
    if (stores.every((s) => s.sql === null)) {
      console.log(
        `\nNothing to migrate: both stores' migrations already match ${rel(stores[0].schema)}. Nothing written.\n` +
          `Change the models in ${rel(stores[0].schema)} first, then run this command again.`,
      );
      return 0;
    }

    const folder = `${migrationTimestamp(existing)}_${opts.name}`;
    for (const [i, s] of stores.entries()) {
      const other = stores[1 - i].label;
      const dir = path.join(s.migrations, folder);
      mkdirSync(dir, { recursive: true });
      const sql =
        s.sql ??
        `-- No ${s.label} change in this migration (only ${other} has one). It exists so that both\n` +
          `-- migration histories keep the same names, one for one (test/migration-histories.test.ts).\n`;
      writeFileSync(path.join(dir, "migration.sql"), sql);
      const statements = s.sql ? (s.sql.match(/;\s*$/gm) ?? []).length : 0;
      console.log(
        `✓ wrote ${rel(path.join(dir, "migration.sql"))} (${s.label}: ${
          s.sql ? `${statements} statement${statements === 1 ? "" : "s"}` : "no change, a comment only"
        })`,
      );
    }

    console.log("… checking that both histories now reproduce their schemas (the drift check)");
    const checks = await Promise.all(stores.map((s) => run(diffArgs(s, "--exit-code"), s.env)));
    const drifted = checks.flatMap((c, i) => (c.code === 0 ? [] : [`${stores[i].label} (exit ${c.code})`]));
    if (drifted.length > 0) {
      console.error(
        `✗ the written migrations do not reproduce the schema for ${drifted.join(" and ")}.\n` +
          `  They are left in place: inspect them, fix them by hand, and run the drift check of npm test again.`,
      );
      return 1;
    }
    console.log("✓ both migration histories match their schemas");

    if (opts.generate) {
      const gens = await Promise.all(
        stores.map((s) => run(["generate", "--schema", s.schema], { ...s.env, PRISMA_GENERATE_NO_HINTS: "1" })),
      );
      for (const [i, g] of gens.entries()) {
        if (g.code !== 0) {
          console.error(`✗ prisma generate failed for ${stores[i].label}:\n${quiet(g.stderr + g.stdout)}`);
          return 1;
        }
      }
      console.log("✓ regenerated both Prisma clients (generated/prisma, generated/prisma-pg)");
    }

    console.log(
      `\nNext: read the two migration.sql files, run \`npm run db:migrate\` to apply the new migration to the\n` +
        `database DATABASE_URL names (either store), and commit ${rel(opts.prismaDir)}/ (both schemas, both migration folders) with the code that uses the change.`,
    );
    return 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
