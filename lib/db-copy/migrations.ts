import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

// This version of Tally's migrations, per store. The two stores have separate histories (their
// folder names differ), so source and target are each compared with their own folder: both must be
// exactly at this version's schema, which is also what the copy's column mapping assumes.

export const MIGRATION_DIRS = {
  sqlite: path.resolve("prisma/migrations"),
  postgres: path.resolve("prisma/postgres/migrations"),
};

export function migrationsIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, "migration.sql")))
    .map((e) => e.name)
    .sort();
}

/** What differs between what a database has applied and what this version ships; null when equal. */
export function migrationGap(applied: string[], shipped: string[]): { missing: string[]; unknown: string[] } | null {
  const missing = shipped.filter((m) => !applied.includes(m));
  const unknown = applied.filter((m) => !shipped.includes(m));
  return missing.length || unknown.length ? { missing, unknown } : null;
}
