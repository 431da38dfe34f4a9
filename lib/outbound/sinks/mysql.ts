import "server-only";
import mysql from "mysql2/promise";
import type { SinkConfig } from "../sink-config";
import { mysqlGuardedStream } from "./guard";
import {
  plainEvents,
  RESULT_COLUMNS,
  resultChunks,
  writeBatch,
  type Sink,
  type SinkEvent,
  type SinkOptions,
} from "./types";

// MySQL and MariaDB: the PostgreSQL sink's tables in MySQL's words. Rows are upserted on
// (job_id, item_key) with INSERT … ON DUPLICATE KEY UPDATE; other events go to `{table}_events` with
// a no-op update on a duplicate event id. Never INSERT IGNORE: in a statement of several rows it turns
// a refused row (a CHECK constraint, a value too long) into a warning and skips it, and the event would
// count delivered without being written (test/sink-scenarios.ts pins it). Keys are VARCHAR (MySQL cannot index TEXT whole). A batch is one
// statement per table (rows in chunks), in one transaction when there are several.

export function mysqlDdl(table: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS \`${table}\` (
      job_id VARCHAR(191) NOT NULL, item_key VARCHAR(191) NOT NULL, url TEXT, status VARCHAR(64) NOT NULL,
      format VARCHAR(32), markdown LONGTEXT, html LONGTEXT, metadata JSON, error_code VARCHAR(191),
      error_message TEXT, tokens_charged INT NOT NULL DEFAULT 0, stored_at DATETIME(3) NOT NULL,
      event_id VARCHAR(64) NOT NULL, PRIMARY KEY (job_id, item_key)
    ) DEFAULT CHARSET = utf8mb4`,
    `CREATE TABLE IF NOT EXISTS \`${table}_events\` (
      event_id VARCHAR(64) NOT NULL PRIMARY KEY, type VARCHAR(64) NOT NULL, job_id VARCHAR(191) NOT NULL,
      outcome VARCHAR(64) NOT NULL, payload JSON NOT NULL, created_at DATETIME(3) NOT NULL
    ) DEFAULT CHARSET = utf8mb4`,
  ];
}

/** Takes NO_BACKSLASH_ESCAPES out of the session's sql_mode, keeping the rest. */
const WITHOUT_BACKSLASH_MODE = `SET SESSION sql_mode =
  TRIM(BOTH ',' FROM REPLACE(CONCAT(',', @@SESSION.sql_mode, ','), ',NO_BACKSLASH_ESCAPES,', ','))`;

export function mysqlSink(config: SinkConfig<"mysql">, opts: SinkOptions): Sink {
  const t = config.table;
  const upsertSql = `INSERT INTO \`${t}\` (${RESULT_COLUMNS.join(", ")}) VALUES ?
    ON DUPLICATE KEY UPDATE url = VALUES(url), status = VALUES(status), format = VALUES(format),
      markdown = VALUES(markdown), html = VALUES(html), metadata = VALUES(metadata),
      error_code = VALUES(error_code), error_message = VALUES(error_message),
      tokens_charged = VALUES(tokens_charged), stored_at = VALUES(stored_at), event_id = VALUES(event_id)`;
  const insertEventsSql = `INSERT INTO \`${t}_events\` (event_id, type, job_id, outcome, payload, created_at) VALUES ?
    ON DUPLICATE KEY UPDATE event_id = event_id`;
  const pool = mysql.createPool({
    uri: config.url,
    connectionLimit: 4,
    connectTimeout: opts.timeoutMs,
    timezone: "Z",
    // A killed or restarted server's connections fail once and leave the pool; the next query opens anew.
    enableKeepAlive: true,
    ...mysqlGuardedStream(opts.guard),
  });
  // Values go into the statement's text escaped with backslashes (one round trip per write: a prepared
  // statement needs two, the first of which a lost answer would leave unwritten). A session in
  // NO_BACKSLASH_ESCAPES mode reads \' as a backslash and the end of the string, and scraped content
  // would go on as SQL: so every connection takes the mode out of its session before its first statement
  // (a connection's commands run in order, and this one is queued before the pool hands it out), a
  // connection that cannot is destroyed, and check() refuses a server where the mode is still on.
  pool.pool.on("connection", (c) => {
    c.on("error", () => undefined);
    c.query(WITHOUT_BACKSLASH_MODE, (err) => {
      if (err) c.destroy();
    });
  });
  let ready: Promise<void> | null = null;
  const ensureTables = () =>
    (ready ??= (async () => {
      for (const sql of mysqlDdl(t)) await pool.query(sql);
    })().catch((err) => {
      ready = null;
      throw err;
    }));

  return {
    async check() {
      const [mode] = await pool.query("SELECT @@SESSION.sql_mode AS mode");
      if (String((mode as Array<{ mode?: unknown }>)[0]?.mode ?? "").includes("NO_BACKSLASH_ESCAPES"))
        throw new Error("the session's sql_mode keeps NO_BACKSLASH_ESCAPES, under which values cannot be escaped");
      await ensureTables();
      await pool.query(`SELECT job_id, item_key, event_id FROM \`${t}\` LIMIT 0`);
    },
    async deliverMany(events: SinkEvent[]) {
      if (events.length === 0) return [];
      await ensureTables();
      return writeBatch(events, async (batch) => {
        const statements: Array<[string, unknown[]]> = resultChunks(batch).map((rows) => [upsertSql, [rows]]);
        const plain = plainEvents(batch);
        if (plain.length > 0)
          statements.push([
            insertEventsSql,
            [plain.map((e) => [e.id, e.type, e.jobId, e.outcome, e.body, e.createdAt])],
          ]);
        if (statements.length === 1) return void (await pool.query(statements[0][0], statements[0][1]));
        // Several statements (many rows, or rows and events): one transaction, all or nothing.
        const conn = await pool.getConnection();
        let fatal = false;
        try {
          await conn.beginTransaction();
          for (const [sql, values] of statements) await conn.query(sql, values);
          await conn.commit();
        } catch (err) {
          fatal = (err as { fatal?: unknown }).fatal === true;
          if (!fatal) await conn.rollback().catch(() => (fatal = true));
          throw err;
        } finally {
          if (fatal) conn.destroy();
          else conn.release();
        }
      });
    },
    close: () => pool.end(),
  };
}
