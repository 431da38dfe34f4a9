import "server-only";
import pg from "pg";
import type { SinkConfig } from "../sink-config";
import { pgGuardedStream } from "./guard";
import {
  asError,
  plainEvents,
  RESULT_COLUMNS,
  resultChunks,
  writeBatch,
  type Sink,
  type SinkEvent,
  type SinkOptions,
} from "./types";

// PostgreSQL: one row per result, upserted on (job_id, item_key), so a re-delivery rewrites the same
// row; events without results (dead-lettered, cancelled, run.completed, a job stored with none) go to
// `{table}_events`, keyed by the event id. Both tables are created when missing (docs/sinks.md). A batch
// is one statement per table (rows in chunks), in one transaction when there are several.

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

type Statement = { text: string; values: unknown[] };

const placeholders = (rows: number, columns: number) =>
  Array.from(
    { length: rows },
    (_, i) => `(${Array.from({ length: columns }, (_, k) => `$${i * columns + k + 1}`).join(",")})`,
  ).join(",");

/**
 * The pool's connection options, built from the URL's parts: host, port, user, database and the two
 * query options the schema allows (sslmode, ssl). Given a connection string, pg takes a password the URL
 * lacks from PGPASSWORD or ~/.pgpass, and would send the deployer's password to the sink's server: the
 * password is a function (pg then asks neither), the URL's or none.
 */
export function postgresConnection(url: string): pg.PoolConfig {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  const sslmode = u.searchParams.get("sslmode");
  const ssl = u.searchParams.get("ssl");
  const tls =
    sslmode === "disable"
      ? false
      : sslmode === "no-verify"
        ? { rejectUnauthorized: false }
        : sslmode
          ? {}
          : ssl === "true" || ssl === "1"
            ? true
            : ssl === "false" || ssl === "0"
              ? false
              : undefined;
  return {
    host: u.hostname.replace(/^\[|\]$/g, ""),
    port: u.port ? Number(u.port) : 5432,
    ...(u.username ? { user: decodeURIComponent(u.username) } : {}),
    password: () => password,
    ...(u.pathname.length > 1 ? { database: decodeURIComponent(u.pathname.slice(1)) } : {}),
    ...(tls === undefined ? {} : { ssl: tls }),
  };
}

export function postgresSink(config: SinkConfig<"postgres">, opts: SinkOptions): Sink {
  const t = config.table;
  // A job's rows in one statement commit together; a re-delivery rewrites them.
  const upsertRows = (rows: unknown[][]): Statement => ({
    text: `INSERT INTO "${t}" (${RESULT_COLUMNS.join(", ")}) VALUES ${placeholders(rows.length, COLUMNS)}
      ON CONFLICT (job_id, item_key) DO UPDATE SET url = EXCLUDED.url, status = EXCLUDED.status,
        format = EXCLUDED.format, markdown = EXCLUDED.markdown, html = EXCLUDED.html,
        metadata = EXCLUDED.metadata, error_code = EXCLUDED.error_code, error_message = EXCLUDED.error_message,
        tokens_charged = EXCLUDED.tokens_charged, stored_at = EXCLUDED.stored_at, event_id = EXCLUDED.event_id`,
    values: rows.flat(),
  });
  const insertEvents = (events: SinkEvent[]): Statement[] =>
    events.length === 0
      ? []
      : [
          {
            text: `INSERT INTO "${t}_events" (event_id, type, job_id, outcome, payload, created_at)
              VALUES ${placeholders(events.length, 6)} ON CONFLICT (event_id) DO NOTHING`,
            values: events.flatMap((e) => [e.id, e.type, e.jobId, e.outcome, e.body, e.createdAt]),
          },
        ];
  const pool = new pg.Pool({
    ...postgresConnection(config.url),
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
    async deliverMany(events: SinkEvent[]) {
      if (events.length === 0) return [];
      await ensureTables();
      return writeBatch(events, async (batch) => {
        const statements = [...resultChunks(batch).map(upsertRows), ...insertEvents(plainEvents(batch))];
        if (statements.length === 1) return void (await pool.query(statements[0].text, statements[0].values));
        // Several statements (many rows, or rows and events): one transaction, all or nothing.
        const client = await pool.connect();
        let broken: Error | undefined;
        try {
          await client.query("BEGIN");
          for (const q of statements) await client.query(q.text, q.values);
          await client.query("COMMIT");
        } catch (err) {
          await client.query("ROLLBACK").catch((e: unknown) => (broken = asError(e)));
          throw err;
        } finally {
          client.release(broken);
        }
      });
    },
    close: () => pool.end(),
  };
}
