// Each test file gets its own database with the migrations applied: a SQLite file in a temp folder, or
// (TALLY_TEST_STORE=postgres) a PostgreSQL database of its own, dropped at clean-up.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { closeBodyStore } from "@/lib/bodies";
import { parseConfig, setConfigForTests, type TallyConfig } from "@/lib/config";
import { dbReady, disconnectAll } from "@/lib/db";
import { closeReceiverStore } from "@/lib/webhooks/store";
import type { TestSql } from "./sql";
import { adminQuery, postgresUrl, TEST_STORE, testDatabaseName } from "./store";

export type TestDb = { url: string; file: string; dir: string; config: TallyConfig; cleanup(): Promise<void> };

/** A fresh migrated database and a configuration pointing at it (plus any overrides). */
export async function createTestDb(env: Record<string, string> = {}): Promise<TestDb> {
  const dir = mkdtempSync(path.join(tmpdir(), "tally-test-"));
  const file = path.join(dir, "tally.db");
  let url = `file:${file}`;
  let database: string | null = null;
  if (TEST_STORE === "postgres") {
    database = testDatabaseName("tally_test");
    await adminQuery(`CREATE DATABASE "${database}" TEMPLATE "${inject("templateDb")}"`);
    url = postgresUrl(database);
  } else {
    copyFileSync(inject("templateDb"), file);
  }
  const config = parseConfig({
    NODE_ENV: "test",
    DATABASE_URL: url,
    TALLY_OPERATOR_PASSWORD: "correct horse battery",
    TALLY_API_TOKEN: "test-token-0123456789abcdef",
    TALLY_SESSION_SECRET: "test-session-secret-0123456789abcdef0123",
    // Page bodies beside the database, gone with it (lib/bodies).
    TALLY_BODY_STORE: `file:${path.join(dir, "bodies")}`,
    ...env,
  });
  setConfigForTests(config);
  await dbReady();
  return {
    url,
    file,
    dir,
    config,
    async cleanup() {
      await disconnectAll();
      await closeReceiverStore();
      await closeBodyStore();
      setConfigForTests(undefined);
      rmSync(dir, { recursive: true, force: true });
      if (database) await adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    },
  };
}

/** An active HMAC subscription with a known secret, written straight to the rows the receiver reads. */
export async function addSubscription(
  sql: TestSql,
  id: string,
  secret: string,
  eventType = "extract_completed",
): Promise<void> {
  await sql.run(
    `INSERT INTO Subscription (id, eventType, url, isActive, scheme, secret, createdAt, updatedAt)
     VALUES (?, ?, 'http://x', true, 'hmac', ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
    id,
    eventType,
    secret,
  );
}
