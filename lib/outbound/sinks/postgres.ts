import "server-only";
import pg from "pg";
import type { SinkConfig } from "../sink-config";
import { pgGuardedStream } from "./guard";
import { RESULT_COLUMNS, resultValues, type Sink, type SinkEvent, type SinkOptions } from "./types";

// PostgreSQL: one row per result, upserted on (job_id, item_key), so a re-delivery rewrites the same
// row; events without results (dead-lettered, cancelled, run.completed, a job stored with none) go to
// `{table}_events`, keyed by the event id. Both tables are created when missing (docs/sinks.md).

export function postgresDdl(table: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS "${table}" (
      job_id text NOT NULL, item_key text NOT NULL, url text, status text NOT NULL, format text,
      markdown text, html text, metadata jsonb, error_code text, error_message text,
      tokens_charged integer NOT NULL DEFAULT 0, stored_at timestamptz NOT NULL, event_id text NOT NULL,
      PRIMARY KEY (job_id, item_key))`,
    `CREATE TABLE IF NOT EXISTS "${table}_events" (
      event_id text PRIMARY KEY, type text NOT NULL, job_id text NOT NULL, outcome text NOT NULL,
      payload jsonb NOT NULL, created_at timestamptz NOT NULL)`,
  ];
}

const COLUMNS = RESULT_COLUMNS.length;

export function postgresSink(config: SinkConfig<"postgres">, opts: SinkOptions): Sink {
  const t = config.table;
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 4,
    connectionTimeoutMillis: opts.timeoutMs,
    idleTimeoutMillis: 30_000,
    statement_timeout: opts.timeoutMs,
    application_name: "tally-sink",
    ...pgGuardedStream(opts.guard),
  });
  // A connection killed while idle (a restart, pg_terminate_backend) is dropped from the pool, not thrown.
  pool.on("error", () => undefined);
  let ready: Promise<void> | null = null;
  const ensureTables = () =>
    (ready ??= (async () => {
      for (const sql of postgresDdl(t)) await pool.query(sql);
    })().catch((err) => {
      ready = null;
      throw err;
    }));

  return {
    async check() {
      await ensureTables();
      await pool.query(`SELECT job_id, item_key, event_id FROM "${t}" LIMIT 0`);
    },
    async deliver(e: SinkEvent) {
      await ensureTables();
      if (e.results && e.results.length > 0) {
        const values: unknown[] = [];
        const rows = e.results.map((r, i) => {
          values.push(...resultValues(e, r));
          return `(${Array.from({ length: COLUMNS }, (_, k) => `$${i * COLUMNS + k + 1}`).join(",")})`;
        });
        // One statement: all of a job's rows commit together or not at all.
        await pool.query(
          `INSERT INTO "${t}" (${RESULT_COLUMNS.join(", ")})
           VALUES ${rows.join(",")}
           ON CONFLICT (job_id, item_key) DO UPDATE SET url = EXCLUDED.url, status = EXCLUDED.status,
             format = EXCLUDED.format, markdown = EXCLUDED.markdown, html = EXCLUDED.html,
             metadata = EXCLUDED.metadata, error_code = EXCLUDED.error_code, error_message = EXCLUDED.error_message,
             tokens_charged = EXCLUDED.tokens_charged, stored_at = EXCLUDED.stored_at, event_id = EXCLUDED.event_id`,
          values,
        );
        return;
      }
      await pool.query(
        `INSERT INTO "${t}_events" (event_id, type, job_id, outcome, payload, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (event_id) DO NOTHING`,
        [e.id, e.type, e.jobId, e.outcome, e.body, e.createdAt],
      );
    },
    close: () => pool.end(),
  };
}
