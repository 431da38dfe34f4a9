// Applies the migrations once into a template database; each test copies it (fast and faithful).
// SQLite: a template file. PostgreSQL (TALLY_TEST_STORE=postgres): a template database, from which
// every test file's own database is created, and which is dropped at the end.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { adminQuery, postgresUrl, TEST_STORE, testDatabaseName } from "./store";

function migrate(url: string) {
  execFileSync("npx", ["prisma", "migrate", "deploy"], { env: { ...process.env, DATABASE_URL: url }, stdio: "pipe" });
}

export default async function setup(project: TestProject) {
  if (TEST_STORE === "postgres") {
    const name = testDatabaseName("tally_template");
    await adminQuery(`CREATE DATABASE "${name}"`);
    migrate(postgresUrl(name));
    project.provide("templateDb", name);
    return () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), "tally-template-"));
  const file = path.join(dir, "template.db");
  migrate(`file:${file}`);
  project.provide("templateDb", file);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    /** SQLite: the template file's path; PostgreSQL: the template database's name. */
    templateDb: string;
  }
}
