import "server-only";
import pg from "pg";
import { log as logger } from "../log";
import { processJobItem } from "../jobs/process-job";
import { QUEUE_CHANNEL } from "../queue/wake";
import type { Accept, LogRow, ReceiverStore, SecretRow } from "./store-types";

// The receiver's PostgreSQL connection: a small pool of its own and group commit. Deliveries that
// arrive together share one transaction, each in its own savepoint (one failing delivery is rolled
// back and answered 5xx alone), and nobody is answered before the COMMIT returns. Within a batch the
// writes go in job-id order, so two batches committing at once on two servers take the unique-index
// locks in the same order and cannot deadlock each other. A batch that wrote queue items wakes the
// workers with one NOTIFY (delivered at commit).

const POOL_SIZE = 4;
const RETRYABLE = new Set(["40P01", "40001"]); // deadlock detected, serialization failure

/** `queued`: the write added a queue item, so the batch wakes the workers (one NOTIFY per batch). */
type Write = { key: string; run: (c: pg.PoolClient) => Promise<unknown>; queued?: (value: unknown) => boolean };
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
      [at, row.subscriptionId, row.deliveryId, row.eventType, row.jobId, row.status, row.reason, row.latencyMs, row.bodyBytes],
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
      const item = processJobItem({ jobId: a.jobId, eventType: a.eventType, deliveryId: a.deliveryId, source: "webhook" });
      await c.query(
        `INSERT INTO "QueueItem" ("kind","payload","jobId","dedupeKey","state","attempts","maxAttempts","availableAt","createdAt","updatedAt")
         VALUES ($1,$2,$3,$4,'ready',0,$5,$6,$6,$6) ON CONFLICT ("dedupeKey") DO NOTHING`,
        [item.kind, JSON.stringify(item.payload), item.jobId, item.dedupeKey, a.maxAttempts, now],
      );
    }
    await insertLog(c, { ...logRow, status: 200, reason: fresh ? "accepted" : "duplicate" }, now);
    return fresh ? "accepted" : "duplicate";
  };

  const commit = groupCommit(pool);
  return {
    accept: (a, logRow) =>
      commit({ key: `0${a.jobId}`, run: (c) => accept(c, a, logRow), queued: (v) => v === "accepted" }) as Promise<"accepted" | "duplicate">,
    // Log rows take no unique locks; they go after the accepted deliveries.
    log: (row) => commit({ key: "1", run: (c) => insertLog(c, row, utc(new Date())) }),
    secrets: async () => {
      const { rows } = await pool.query<{
        id: string;
        eventType: string;
        isActive: boolean;
        scheme: string;
        secret: string | null;
        previousSecret: string | null;
        previousSecretExpiresAt: Date | null;
      }>(`SELECT "id","eventType","isActive","scheme","secret","previousSecret","previousSecretExpiresAt" FROM "Subscription"`);
      return rows.map(
        (r): SecretRow => ({
          ...r,
          isActive: r.isActive ? 1 : 0,
          previousSecretExpiresAt: r.previousSecretExpiresAt ? r.previousSecretExpiresAt.toISOString() : null,
        }),
      );
    },
    close: () => pool.end(),
  };
}

function groupCommit(pool: pg.Pool) {
  let queue: Op[] = [];
  let scheduled = false;

  const runBatch = async (batch: Op[]): Promise<{ ok: boolean; value?: unknown; error?: unknown }[]> => {
    const c = await pool.connect();
    let broken = false;
    try {
      await c.query("BEGIN");
      const out: { ok: boolean; value?: unknown; error?: unknown }[] = [];
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
      if (batch.some((op, i) => out[i].ok && op.queued?.(out[i].value))) await c.query(`SELECT pg_notify($1, '')`, [QUEUE_CHANNEL]);
      await c.query("COMMIT");
      return out;
    } catch (error) {
      await c.query("ROLLBACK").catch(() => (broken = true));
      throw error;
    } finally {
      c.release(broken);
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
