// Prisma CLI configuration, fully offline (see README, "Database"): the JS schema engine over a driver
// adapter. DATABASE_URL picks the store: `file:…` is SQLite (prisma/schema.prisma, prisma/migrations),
// `postgresql://…` is PostgreSQL (prisma/postgres/, generated from the SQLite schema).
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";
import { MigrationPg } from "./prisma/postgres-adapter";

// The CLI does not load .env; DATABASE_URL comes from the environment, as for the app.
const url = process.env.DATABASE_URL ?? "file:./data/tally.db";
const postgres = /^postgres(ql)?:\/\//.test(url);

// The shadow database runs multi-statement migration SQL through executeRaw, which a prepared
// statement rejects; route argument-less executeRaw calls to executeScript instead.
class MigrationAwareSQLite3 extends PrismaBetterSQLite3 {
  override async connectToShadowDb() {
    const conn = await super.connectToShadowDb();
    const executeRaw = conn.executeRaw.bind(conn);
    conn.executeRaw = async (query) => {
      if (query.args.length === 0) {
        await conn.executeScript(query.sql);
        return 0;
      }
      return executeRaw(query);
    };
    return conn;
  }
}

const dir = postgres ? path.join("prisma", "postgres") : "prisma";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(dir, "schema.prisma"),
  migrations: { path: path.join(dir, "migrations") },
  adapter: async () => (postgres ? new MigrationPg(url) : new MigrationAwareSQLite3({ url, timeout: 5000 })),
});
