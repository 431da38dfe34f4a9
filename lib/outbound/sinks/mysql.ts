import "server-only";
import mysql from "mysql2/promise";
import type { SinkConfig } from "../sink-config";
import { mysqlGuardedStream } from "./guard";
import { RESULT_COLUMNS, resultValues, type Sink, type SinkEvent, type SinkOptions } from "./types";

// MySQL and MariaDB: the PostgreSQL sink's tables in MySQL's words. Rows are upserted on
// (job_id, item_key) with INSERT … ON DUPLICATE KEY UPDATE; other events go to `{table}_events` with
// INSERT IGNORE on the event id. Keys are VARCHAR (MySQL cannot index TEXT whole).

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

export function mysqlSink(config: SinkConfig<"mysql">, opts: SinkOptions): Sink {
  const t = config.table;
  const pool = mysql.createPool({
    uri: config.url,
    connectionLimit: 4,
    connectTimeout: opts.timeoutMs,
    timezone: "Z",
    // A killed or restarted server's connections fail once and leave the pool; the next query opens anew.
    enableKeepAlive: true,
    ...mysqlGuardedStream(opts.guard),
  });
  pool.on("connection", (c) => c.on("error", () => undefined));
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
      await ensureTables();
      await pool.query(`SELECT job_id, item_key, event_id FROM \`${t}\` LIMIT 0`);
    },
    async deliver(e: SinkEvent) {
      await ensureTables();
      if (e.results && e.results.length > 0) {
        const rows = e.results.map((r) => resultValues(e, r));
        await pool.query(
          `INSERT INTO \`${t}\` (${RESULT_COLUMNS.join(", ")}) VALUES ?
           ON DUPLICATE KEY UPDATE url = VALUES(url), status = VALUES(status), format = VALUES(format),
             markdown = VALUES(markdown), html = VALUES(html), metadata = VALUES(metadata),
             error_code = VALUES(error_code), error_message = VALUES(error_message),
             tokens_charged = VALUES(tokens_charged), stored_at = VALUES(stored_at), event_id = VALUES(event_id)`,
          [rows],
        );
        return;
      }
      await pool.query(
        `INSERT IGNORE INTO \`${t}_events\` (event_id, type, job_id, outcome, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
        [e.id, e.type, e.jobId, e.outcome, e.body, e.createdAt],
      );
    },
    close: () => pool.end(),
  };
}
