import "server-only";
import pg from "pg";
import { log as logger } from "../log";
import { processJobItem } from "../jobs";
import { QUEUE_CHANNEL } from "../queue";
import type { Accept, LogRow, ReceiverStore, SecretRow } from "./store-types";

// The receiver's PostgreSQL connection: a small pool of its own and group commit. Deliveries that
// arrive together are written by ONE statement (receipts, queue items, log rows and the workers'
// NOTIFY, as data-modifying CTEs over arrays): one round trip and one commit for the whole batch,
// and nobody is answered before it returns. Receipts and queue items go in job-id order, so two
// batches committing at once on two servers take the unique-index locks in the same order and cannot
// deadlock each other. If that statement fails (one delivery's data the database refuses), the batch
// is written again one delivery at a time, each in its own savepoint: the bad one is answered 5xx
// alone and the others are stored.

const POOL_SIZE = 4;
const RETRYABLE = new Set(["40P01", "40001"]); // deadlock detected, serialization failure

/**
 * One delivery's writes: an accepted delivery (`accept` + its log row) or a log row alone. `run` is
 * the one-at-a-time form for the savepoint path; `queued`: its value means a queue item was added, so
 * the batch wakes the workers (one NOTIFY per batch).
 */
type Write = {
  key: string;
  accept?: Accept;
  logRow: Omit<LogRow, "status" | "reason"> & Partial<Pick<LogRow, "status" | "reason">>;
  run: (c: pg.PoolClient) => Promise<unknown>;
  queued?: (value: unknown) => boolean;
};
type Outcome = { ok: boolean; value?: unknown; error?: unknown };
type Op = Write & { resolve: (v: unknown) => void; reject: (e: unknown) => void };

// Timestamps are sent as UTC text: "timestamp(3)" columns hold UTC wall time, as Prisma writes them.
const utc = (d: Date) => d.toISOString();

export function openPostgresStore(url: string): ReceiverStore {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  // An idle connection that breaks must not end the process; the next query opens another.
  pool.on("error", (err) => logger.warn("receiver database connection lost", { error: err.message }));

  const insertLog = (c: pg.PoolClient, row: LogRow, at: string) =>
    c.query(
      `INSERT INTO "InboundDelivery" ("receivedAt","subscriptionId","deliveryId","eventType","jobId","status","reason","latencyMs","bodyBytes")
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
      [
        at,
        row.subscriptionId,
        row.deliveryId,
        row.eventType,
        row.jobId,
        row.status,
        row.reason,
        row.latencyMs,
        row.bodyBytes,
      ],
    );

  // Receipt and queue item commit together or not at all (invariant 1). The log row rides along.
  const accept = async (c: pg.PoolClient, a: Accept, logRow: Omit<LogRow, "status" | "reason">) => {
    const now = utc(new Date());
    const receipt = await c.query(
      `INSERT INTO "Receipt" ("jobId","eventType","deliveryId","subscriptionId","source","receivedAt")
       VALUES ($1,$2,$3,$4,'webhook',$5) ON CONFLICT ("jobId") DO NOTHING`,
      [a.jobId, a.eventType, a.deliveryId, a.subscriptionId, now],
    );
    const fresh = receipt.rowCount === 1;
    if (fresh) {
      const item = processJobItem({
        jobId: a.jobId,
        eventType: a.eventType,
        deliveryId: a.deliveryId,
        source: "webhook",
      });
      await c.query(
        `INSERT INTO "QueueItem" ("kind","payload","jobId","dedupeKey","state","attempts","maxAttempts","availableAt","createdAt","updatedAt","traceContext")
         VALUES ($1,$2,$3,$4,'ready',0,$5,$6,$6,$6,$7) ON CONFLICT ("dedupeKey") DO NOTHING`,
        [item.kind, JSON.stringify(item.payload), item.jobId, item.dedupeKey, a.maxAttempts, now, a.traceContext],
      );
    }
    await insertLog(c, { ...logRow, status: 200, reason: fresh ? "accepted" : "duplicate" }, now);
    return fresh ? "accepted" : "duplicate";
  };

  const commit = groupCommit(pool, (ops) => writeBatch(pool, ops));
  return {
    accept: (a, logRow) =>
      commit({
        key: `0${a.jobId}`,
        accept: a,
        logRow,
        run: (c) => accept(c, a, logRow),
        queued: (v) => v === "accepted",
      }) as Promise<"accepted" | "duplicate">,
    // Log rows take no unique locks; they go after the accepted deliveries.
    log: (row) => commit({ key: "1", logRow: row, run: (c) => insertLog(c, row, utc(new Date())) }),
    secrets: async () => {
      const { rows } = await pool.query<{
        id: string;
        eventType: string;
        isActive: boolean;
        scheme: string;
        secret: string | null;
        previousSecret: string | null;
        previousSecretExpiresAt: Date | null;
      }>(
        `SELECT "id","eventType","isActive","scheme","secret","previousSecret","previousSecretExpiresAt" FROM "Subscription"`,
      );
      return rows.map((r): SecretRow => ({
        ...r,
        isActive: r.isActive ? 1 : 0,
        previousSecretExpiresAt: r.previousSecretExpiresAt ? r.previousSecretExpiresAt.toISOString() : null,
      }));
    },
    close: () => pool.end(),
  };
}

/** Every delivery of the batch in one statement; the value of each write (accepted/duplicate for accepts). */
async function writeBatch(pool: pg.Pool, ops: Write[]): Promise<unknown[]> {
  const now = utc(new Date());
  // The first delivery of each job in the batch is the one that may be accepted; the others are duplicates.
  const first = new Map<string, Accept>();
  for (const op of ops) if (op.accept && !first.has(op.accept.jobId)) first.set(op.accept.jobId, op.accept);
  const accepts = [...first.values()].sort((a, b) => (a.jobId < b.jobId ? -1 : a.jobId > b.jobId ? 1 : 0));
  const items = accepts.map((a) =>
    processJobItem({ jobId: a.jobId, eventType: a.eventType, deliveryId: a.deliveryId, source: "webhook" }),
  );
  const logs = ops.map((op) => op.logRow);
  const { rows } = await pool.query<{ fresh: string[] | null }>(
    `WITH a AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $20::text[])
         AS a("jobId", "eventType", "deliveryId", "subscriptionId", kind, payload, "dedupeKey", "maxAttempts", "traceContext")
     ),
     r AS (
       INSERT INTO "Receipt" ("jobId","eventType","deliveryId","subscriptionId","source","receivedAt")
       SELECT "jobId", "eventType", "deliveryId", "subscriptionId", 'webhook', $9 FROM a ORDER BY "jobId"
       ON CONFLICT ("jobId") DO NOTHING
       RETURNING "jobId"
     ),
     q AS (
       INSERT INTO "QueueItem" ("kind","payload","jobId","dedupeKey","state","attempts","maxAttempts","availableAt","createdAt","updatedAt","traceContext")
       SELECT kind, payload, "jobId", "dedupeKey", 'ready', 0, "maxAttempts", $9, $9, $9, "traceContext" FROM a
       WHERE "jobId" IN (SELECT "jobId" FROM r) ORDER BY "jobId"
       ON CONFLICT ("dedupeKey") DO NOTHING
       RETURNING 1
     ),
     l AS (
       INSERT INTO "InboundDelivery" ("receivedAt","subscriptionId","deliveryId","eventType","jobId","status","reason","latencyMs","bodyBytes")
       SELECT $9, "subscriptionId", "deliveryId", "eventType", "jobId", COALESCE(status, 200),
              COALESCE(reason, CASE WHEN representative AND "jobId" IN (SELECT "jobId" FROM r) THEN 'accepted' ELSE 'duplicate' END),
              "latencyMs", "bodyBytes"
       FROM unnest($10::text[], $11::text[], $12::text[], $13::text[], $14::int[], $15::text[], $16::int[], $17::int[], $18::bool[])
         AS l("subscriptionId", "deliveryId", "eventType", "jobId", status, reason, "latencyMs", "bodyBytes", representative)
       RETURNING 1
     ),
     n AS (SELECT pg_notify($19, '') FROM (SELECT 1 FROM q LIMIT 1) AS woken)
     SELECT (SELECT array_agg("jobId") FROM r) AS fresh, (SELECT count(*) FROM l) AS logged, (SELECT count(*) FROM n) AS notified`,
    [
      accepts.map((a) => a.jobId),
      accepts.map((a) => a.eventType),
      accepts.map((a) => a.deliveryId),
      accepts.map((a) => a.subscriptionId),
      items.map((i) => i.kind),
      items.map((i) => JSON.stringify(i.payload)),
      items.map((i) => i.dedupeKey),
      accepts.map((a) => a.maxAttempts),
      now,
      logs.map((l) => l.subscriptionId),
      logs.map((l) => l.deliveryId),
      logs.map((l) => l.eventType),
      logs.map((l) => l.jobId),
      logs.map((l) => l.status ?? null),
      logs.map((l) => l.reason ?? null),
      logs.map((l) => l.latencyMs),
      logs.map((l) => l.bodyBytes),
      ops.map((op) => !!op.accept && first.get(op.accept.jobId) === op.accept),
      QUEUE_CHANNEL,
      accepts.map((a) => a.traceContext),
    ],
  );
  const fresh = new Set(rows[0]?.fresh ?? []);
  return ops.map((op) =>
    op.accept
      ? first.get(op.accept.jobId) === op.accept && fresh.has(op.accept.jobId)
        ? "accepted"
        : "duplicate"
      : undefined,
  );
}

function groupCommit(pool: pg.Pool, writeAll: (ops: Write[]) => Promise<unknown[]>) {
  let queue: Op[] = [];
  let scheduled = false;

  /** The fallback: one delivery at a time, each in a savepoint, so one bad delivery fails alone. */
  const oneByOne = async (batch: Op[]): Promise<Outcome[]> => {
    const c = await pool.connect();
    let broken = false;
    try {
      await c.query("BEGIN");
      const out: Outcome[] = [];
      for (const op of batch) {
        await c.query("SAVEPOINT d");
        try {
          out.push({ ok: true, value: await op.run(c) });
          await c.query("RELEASE SAVEPOINT d");
        } catch (error) {
          if (RETRYABLE.has((error as { code?: string }).code ?? "")) throw error;
          await c.query("ROLLBACK TO SAVEPOINT d");
          out.push({ ok: false, error });
        }
      }
      if (batch.some((op, i) => out[i].ok && op.queued?.(out[i].value)))
        await c.query(`SELECT pg_notify($1, '')`, [QUEUE_CHANNEL]);
      await c.query("COMMIT");
      return out;
    } catch (error) {
      await c.query("ROLLBACK").catch(() => (broken = true));
      throw error;
    } finally {
      c.release(broken);
    }
  };

  const runBatch = async (batch: Op[]): Promise<Outcome[]> => {
    try {
      return (await writeAll(batch)).map((value) => ({ ok: true, value }));
    } catch (error) {
      if (RETRYABLE.has((error as { code?: string }).code ?? "")) throw error;
      logger.warn("receiver batch refused by the database; writing its deliveries one by one", {
        deliveries: batch.length,
        error: String(error),
      });
      return oneByOne(batch);
    }
  };

  const flush = async () => {
    scheduled = false;
    const batch = queue.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    queue = [];
    for (let attempt = 1; ; attempt++) {
      try {
        const out = await runBatch(batch);
        batch.forEach((op, i) => (out[i].ok ? op.resolve(out[i].value) : op.reject(out[i].error)));
        return;
      } catch (error) {
        if (attempt < 3 && RETRYABLE.has((error as { code?: string }).code ?? "")) continue;
        for (const op of batch) op.reject(error);
        return;
      }
    }
  };

  return (write: Write): Promise<unknown> =>
    new Promise((resolve, reject) => {
      queue.push({ ...write, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => void flush());
      }
    });
}
