// prisma/schema.prisma is the one source of truth for Tally's models. The PostgreSQL schema is made
// from it: the same models, another datasource and client output. `npm run db:schema` writes it;
// test/schema-sync.test.ts fails when the committed file differs from what this would write.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const PRISMA_DIR = path.join(root, "prisma");
export const SQLITE_SCHEMA = path.join(PRISMA_DIR, "schema.prisma");
export const POSTGRES_SCHEMA = path.join(PRISMA_DIR, "postgres", "schema.prisma");

const HEADER = `// GENERATED from prisma/schema.prisma by \`npm run db:schema\`: edit that file, not this one.
// Tally's models for PostgreSQL (the scale-out store); migrations in prisma/postgres/migrations.
`;

const GENERATOR = `generator client {
  provider   = "prisma-client"
  output     = "../../generated/prisma-pg"
  engineType = "client"
}`;

const DATASOURCE = `datasource db {
  provider = "postgresql"
  // The CLI needs a url here to stay offline; the real one comes from DATABASE_URL via prisma.config.ts.
  url      = "postgresql://localhost:5432/tally"
}`;

/** The PostgreSQL schema text for a given SQLite schema text. Lines written `// @postgres …` in the
 * SQLite schema are PostgreSQL-only fields and indexes (types SQLite has not): they become live here. */
export function postgresSchemaFrom(sqlite) {
  const body = sqlite
    .replace(/^(\s*)\/\/ @postgres /gm, "$1")
    .replace(/^\/\/[^\n]*\n(\/\/[^\n]*\n)*\n?/, "")
    .replace(/generator client \{[^}]*\}/, GENERATOR)
    .replace(/datasource db \{[^}]*\}/, DATASOURCE);
  if (!body.includes(GENERATOR) || !body.includes(DATASOURCE))
    throw new Error("prisma/schema.prisma: generator or datasource block not found");
  return HEADER + "\n" + body;
}

/** Writes `<prismaDir>/postgres/schema.prisma` from `<prismaDir>/schema.prisma`; whether it changed. */
export function writePostgresSchema(prismaDir = PRISMA_DIR) {
  const target = path.join(prismaDir, "postgres", "schema.prisma");
  const text = postgresSchemaFrom(readFileSync(path.join(prismaDir, "schema.prisma"), "utf8"));
  const before = existsSync(target) ? readFileSync(target, "utf8") : null;
  if (before === text) return false;
  writeFileSync(target, text);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const changed = writePostgresSchema();
  console.log(`${changed ? "wrote" : "up to date:"} ${path.relative(root, POSTGRES_SCHEMA)}`);
}
