// One source of truth for the models: prisma/postgres/schema.prisma is made from prisma/schema.prisma
// (npm run db:schema) and must not drift from it, or the two stores would differ.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { POSTGRES_SCHEMA, postgresSchemaFrom, SQLITE_SCHEMA } from "../scripts/postgres-schema.mjs";

const models = (schema: string) =>
  [...schema.matchAll(/^model (\w+) \{([^}]*)\}/gm)].map(([, name, body]) => ({
    name,
    lines: body
      .split("\n")
      .map((l) => l.replace(/\/\/.*$/, "").trim())
      .filter(Boolean),
  }));

describe("the PostgreSQL schema", () => {
  const sqlite = readFileSync(SQLITE_SCHEMA, "utf8");
  const postgres = readFileSync(POSTGRES_SCHEMA, "utf8");

  it("is what npm run db:schema makes of the SQLite schema", () => {
    expect(postgres, "prisma/postgres/schema.prisma is stale: run npm run db:schema").toBe(postgresSchemaFrom(sqlite));
  });

  it("has the same models, fields, indexes and constraints, plus the PostgreSQL-only ones declared there", () => {
    // PostgreSQL-only lines are declared in the SQLite schema as `// @postgres …` comments.
    expect(models(postgres)).toEqual(models(sqlite.replace(/\/\/ @postgres /g, "")));
    expect(models(sqlite).length).toBeGreaterThan(10);
    expect(postgres).toMatch(/provider = "postgresql"/);
  });
});
