// Prisma CLI configuration: the JS schema engine over better-sqlite3, fully offline (see README, "Database").
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";

// The CLI does not load .env; DATABASE_URL comes from the environment, as for the app.
const url = process.env.DATABASE_URL ?? "file:./data/tally.db";

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

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  adapter: async () => new MigrationAwareSQLite3({ url, timeout: 5000 }),
});
