// The two migration histories match one for one by folder name (npm run db:migration writes both),
// except the migrations prisma/migration-histories.json names with a reason: the early ones applied
// under different names (renaming an applied migration breaks existing databases) and store-only ones.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export type Allowed = { sqliteOnly: Record<string, string>; postgresOnly: Record<string, string> };

export const folders = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort()
    : [];

export function readAllowed(prismaDir: string): Allowed {
  return JSON.parse(readFileSync(path.join(prismaDir, "migration-histories.json"), "utf8")) as Allowed;
}

/** What is wrong with the two histories, one sentence each; empty when they match. */
export function historyProblems(sqlite: string[], postgres: string[], allowed: Allowed): string[] {
  const problems: string[] = [];
  const sides = [
    { label: "prisma/migrations (SQLite)", mine: sqlite, theirs: postgres, only: allowed.sqliteOnly },
    { label: "prisma/postgres/migrations (PostgreSQL)", mine: postgres, theirs: sqlite, only: allowed.postgresOnly },
  ];
  for (const { label, mine, theirs, only } of sides) {
    for (const name of mine) {
      if (!theirs.includes(name) && !(name in only))
        problems.push(
          `${name} is in ${label} only: write migrations with npm run db:migration (both folders, one name), ` +
            `or name it in prisma/migration-histories.json with the reason it belongs to one store`,
        );
    }
    for (const [name, reason] of Object.entries(only)) {
      if (!mine.includes(name)) problems.push(`prisma/migration-histories.json names ${name}, which ${label} lacks`);
      if (theirs.includes(name))
        problems.push(`prisma/migration-histories.json names ${name} as one store's, but both have it`);
      if (reason.trim().length < 20) problems.push(`prisma/migration-histories.json gives ${name} no real reason`);
    }
    // Two migrations with one timestamp sort by name only; the early pair that did is allow-listed.
    const stamps = new Map<string, string>();
    for (const name of mine.filter((n) => !(n in only))) {
      const stamp = name.slice(0, 14);
      const earlier = stamps.get(stamp);
      if (earlier) problems.push(`${earlier} and ${name} in ${label} share the timestamp ${stamp}`);
      stamps.set(stamp, name);
    }
  }
  return problems;
}
