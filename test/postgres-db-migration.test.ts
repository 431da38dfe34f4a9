// npm run db:migration on a copy of the prisma/ folder: one model change becomes one migration per store,
// same timestamp and name, whose SQL applies (migrate deploy on a fresh SQLite file and a fresh
// PostgreSQL database) and after which both drift checks pass. Needs PostgreSQL (its migration is
// computed in a shadow database there), hence a test/postgres-* file.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationTimestamp, nameProblem } from "../scripts/db-migration.mjs";
import { folders, historyProblems, readAllowed } from "./migration-histories";
import { openSql } from "./sql";
import { adminQuery, POSTGRES_ADMIN_URL, postgresUrl, testDatabaseName } from "./store";

const repo = path.join(import.meta.dirname, "..");
// Each step runs the Prisma CLI (two diffs and two drift checks per command): slow on a busy machine.
const SLOW = { timeout: 240_000 };
const PRISMA = path.join(repo, "node_modules", ".bin", "prisma");

type Run = { code: number; out: string };

async function exec(file: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, {
      cwd: repo,
      env: { ...process.env, TALLY_TEST_POSTGRES_URL: POSTGRES_ADMIN_URL, ...env },
    });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === "number" ? err.code : -1, out: `${err.stdout ?? ""}${err.stderr ?? ""}` };
  }
}

describe("npm run db:migration", () => {
  let tmp: string;
  let prisma: string;
  let config: string;
  const databases: string[] = [];
  const command = (...args: string[]) =>
    exec(process.execPath, [
      path.join(repo, "scripts", "db-migration.mjs"),
      ...args,
      "--prisma-dir",
      prisma,
      "--skip-generate",
    ]);
  const storeDirs = () => ({
    sqlite: path.join(prisma, "migrations"),
    postgres: path.join(prisma, "postgres", "migrations"),
  });
  const newFolders = (before: string[], dir: string) => folders(dir).filter((f) => !before.includes(f));

  beforeAll(() => {
    tmp = mkdtempSync(path.join(tmpdir(), "tally-db-migration-test-"));
    prisma = path.join(tmp, "prisma");
    cpSync(path.join(repo, "prisma"), prisma, { recursive: true });
    // The CLI's configuration with the copy's schemas and migrations (adapters from the real one).
    config = path.join(tmp, "prisma.config.ts");
    writeFileSync(
      config,
      `import base from ${JSON.stringify(path.join(repo, "prisma.config.ts"))};
const dir = /^postgres(ql)?:/.test(process.env.DATABASE_URL ?? "") ? ${JSON.stringify(path.join(prisma, "postgres"))} : ${JSON.stringify(prisma)};
export default { ...base, schema: dir + "/schema.prisma", migrations: { path: dir + "/migrations" } };
`,
    );
  });

  afterAll(async () => {
    for (const d of databases) await adminQuery(`DROP DATABASE IF EXISTS "${d}" WITH (FORCE)`);
    rmSync(tmp, { recursive: true, force: true });
  });

  it("refuses a name that is not snake_case, or one already used, with exit 2 and writes nothing", SLOW, async () => {
    const before = folders(storeDirs().sqlite);
    for (const bad of ["AddNotes", "add-notes", "add__notes", "1st", ""]) {
      const run = await command(bad);
      expect(run.code, run.out).toBe(2);
      expect(run.out).toMatch(/✗ .*(snake_case|name is required)/);
    }
    const used = await command("accounts");
    expect(used.code, used.out).toBe(2);
    expect(used.out).toContain("exists already (20261201140000_accounts)");
    expect(folders(storeDirs().sqlite)).toEqual(before);
    expect(nameProblem("add_job_notes")).toBeNull();
  });

  it("writes one migration per store with the same timestamp and name, and the PostgreSQL schema", SLOW, async () => {
    const schema = path.join(prisma, "schema.prisma");
    const text = readFileSync(schema, "utf8");
    const field = "  kind              String // extract | batch | crawl\n";
    expect(text).toContain(field);
    writeFileSync(
      schema,
      text.replace(field, `${field}  probeNote         String?\n`) +
        `\nmodel MigrationProbe {\n  id    Int      @id @default(autoincrement())\n  label String   @unique\n  at    DateTime @default(now())\n}\n`,
    );
    const before = { sqlite: folders(storeDirs().sqlite), postgres: folders(storeDirs().postgres) };

    const run = await command("add_migration_probe");
    expect(run.code, run.out).toBe(0);
    const [sqliteNew] = newFolders(before.sqlite, storeDirs().sqlite);
    expect(newFolders(before.sqlite, storeDirs().sqlite)).toEqual([
      expect.stringMatching(/^\d{14}_add_migration_probe$/),
    ]);
    expect(newFolders(before.postgres, storeDirs().postgres)).toEqual([sqliteNew]);
    expect(run.out).toContain(
      `wrote ${path.join(storeDirs().sqlite, sqliteNew, "migration.sql")} (SQLite: 3 statements)`,
    );
    expect(run.out).toContain("both migration histories match their schemas");

    const sqliteSql = readFileSync(path.join(storeDirs().sqlite, sqliteNew, "migration.sql"), "utf8");
    const postgresSql = readFileSync(path.join(storeDirs().postgres, sqliteNew, "migration.sql"), "utf8");
    expect(sqliteSql).toContain('ALTER TABLE "Job" ADD COLUMN "probeNote" TEXT;');
    expect(sqliteSql).toContain("AUTOINCREMENT"); // SQLite's dialect
    expect(postgresSql).toContain('CREATE TABLE "MigrationProbe"');
    expect(postgresSql).toContain("SERIAL"); // PostgreSQL's dialect
    expect(readFileSync(path.join(prisma, "postgres", "schema.prisma"), "utf8")).toContain("model MigrationProbe {");
  });

  it(
    "gives the store without a change a comment-only migration of the same name (a PostgreSQL-only index)",
    SLOW,
    async () => {
      const schema = path.join(prisma, "schema.prisma");
      const text = readFileSync(schema, "utf8");
      writeFileSync(
        schema,
        text.replace("  label String   @unique\n", "  label String   @unique\n  // @postgres @@index([at])\n"),
      );
      const before = folders(storeDirs().sqlite);

      const run = await command("index_probe_at");
      expect(run.code, run.out).toBe(0);
      const added = newFolders(before, storeDirs().sqlite);
      expect(added).toEqual([expect.stringMatching(/^\d{14}_index_probe_at$/)]);
      // Sorts after the migration written a moment ago, even within the same second.
      expect(added[0] > before.at(-1)!).toBe(true);
      expect(folders(storeDirs().postgres)).toContain(added[0]);
      const sqliteSql = readFileSync(path.join(storeDirs().sqlite, added[0], "migration.sql"), "utf8");
      expect(sqliteSql).toMatch(/^-- No SQLite change in this migration/);
      expect(sqliteSql.replace(/^--.*$/gm, "").trim()).toBe("");
      expect(readFileSync(path.join(storeDirs().postgres, added[0], "migration.sql"), "utf8")).toContain(
        'CREATE INDEX "MigrationProbe_at_idx"',
      );
    },
  );

  it(
    "leaves histories whose SQL applies on both stores and passes both drift checks and the 1:1 check",
    SLOW,
    async () => {
      const sqliteUrl = `file:${path.join(tmp, "deploy.db")}`;
      const database = testDatabaseName("tally_migration");
      databases.push(database);
      await adminQuery(`CREATE DATABASE "${database}"`);
      const pgUrl = postgresUrl(database);

      const deploys = await Promise.all(
        [sqliteUrl, pgUrl].map((url) => exec(PRISMA, ["migrate", "deploy", "--config", config], { DATABASE_URL: url })),
      );
      for (const d of deploys) {
        expect(d.code, d.out).toBe(0);
        expect(d.out).toContain("All migrations have been successfully applied.");
      }
      for (const url of [sqliteUrl, pgUrl]) {
        const sql = await openSql(url);
        try {
          const applied = await sql.all<{ migration_name: string }>(
            "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name",
          );
          expect(applied.map((r) => r.migration_name).slice(-2)).toEqual([
            expect.stringMatching(/_add_migration_probe$/),
            expect.stringMatching(/_index_probe_at$/),
          ]);
          expect(await sql.run("INSERT INTO MigrationProbe (label) VALUES ('one')")).toBe(1);
          expect(await sql.get("SELECT label, probeNote FROM MigrationProbe CROSS JOIN Job WHERE 1=0")).toBeUndefined();
        } finally {
          await sql.close();
        }
      }

      const drift = (dir: string, url: string) =>
        exec(
          PRISMA,
          [
            "migrate",
            "diff",
            "--from-migrations",
            `${dir}/migrations`,
            "--to-schema-datamodel",
            `${dir}/schema.prisma`,
            "--exit-code",
          ],
          {
            DATABASE_URL: url,
          },
        );
      const checks = await Promise.all([
        drift(prisma, `file:${path.join(tmp, "drift.db")}`),
        drift(path.join(prisma, "postgres"), POSTGRES_ADMIN_URL),
      ]);
      for (const c of checks) expect(c.code, c.out).toBe(0);

      const { sqlite, postgres } = storeDirs();
      expect(historyProblems(folders(sqlite), folders(postgres), readAllowed(prisma))).toEqual([]);
    },
  );

  it("says there is nothing to migrate, exits 0 and writes nothing when both stores match", SLOW, async () => {
    const before = readdirSync(storeDirs().postgres);
    const run = await command("nothing_changed");
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain("Nothing to migrate");
    expect(readdirSync(storeDirs().postgres)).toEqual(before);
    expect(folders(storeDirs().sqlite).some((f) => f.endsWith("_nothing_changed"))).toBe(false);
  });
});

describe("the migration timestamp", () => {
  it("is the UTC time, or one second after the latest migration when that is not earlier", () => {
    const now = new Date("2026-12-02T14:05:09.500Z");
    expect(migrationTimestamp(["20261201160000_x"], now)).toBe("20261202140509");
    expect(migrationTimestamp(["20261202140509_x"], now)).toBe("20261202140510");
    expect(migrationTimestamp(["20270101000000_future", "migration_lock.toml"], now)).toBe("20270101000001");
  });
});
