import "server-only";
import Database from "better-sqlite3";
import { processJobItem } from "../jobs";
import { manageCheckpoints, sqliteDate, withBusyRetry } from "../runtime";
import type { Accept, LogRow, ReceiverStore, SecretRow } from "./store-types";

// The receiver's own SQLite connection with prepared statements: one small synchronous transaction
// per delivery (receipt + queue item + log row) instead of several round trips through the ORM.
// busy_timeout is 0 on purpose: a synchronous wait would block the event loop, and with it any
// interactive transaction of the app's other connection that holds the lock. Busy → retry async.

export { sqliteDate };

export function openSqliteStore(url: string): ReceiverStore {
  const conn = new Database(url.replace(/^file:/, ""), { timeout: 0 });
  conn.pragma("journal_mode = WAL");
  conn.pragma("synchronous = NORMAL");
  manageCheckpoints(conn, conn.name);
  const insertReceipt = conn.prepare(
    `INSERT INTO "Receipt" ("jobId","eventType","deliveryId","subscriptionId","source","receivedAt")
     VALUES (?,?,?,?,'webhook',?) ON CONFLICT ("jobId") DO NOTHING`,
  );
  const insertQueueItem = conn.prepare(
    `INSERT INTO "QueueItem" ("kind","payload","jobId","dedupeKey","state","attempts","maxAttempts","availableAt","createdAt","updatedAt","traceContext")
     VALUES (?,?,?,?,'ready',0,?,?,?,?,?) ON CONFLICT ("dedupeKey") DO NOTHING`,
  );
  const insertLog = conn.prepare(
    `INSERT INTO "InboundDelivery" ("receivedAt","subscriptionId","deliveryId","eventType","jobId","status","reason","latencyMs","bodyBytes")
     VALUES (?,?,?,?,?,?,?,?,?)`,
  );
  const selectSecrets = conn.prepare(
    `SELECT "id","eventType","isActive","scheme","secret","previousSecret","previousSecretExpiresAt" FROM "Subscription"`,
  );
  const log = (row: LogRow, at: string) =>
    insertLog.run(
      at,
      row.subscriptionId,
      row.deliveryId,
      row.eventType,
      row.jobId,
      row.status,
      row.reason,
      row.latencyMs,
      row.bodyBytes,
    );

  // Receipt and queue item commit together or not at all (invariant 1). The log row rides along.
  const accept = (a: Accept, logRow: Omit<LogRow, "status" | "reason">): "accepted" | "duplicate" => {
    const now = sqliteDate(new Date());
    const fresh = insertReceipt.run(a.jobId, a.eventType, a.deliveryId, a.subscriptionId, now).changes === 1;
    if (fresh) {
      const item = processJobItem({
        jobId: a.jobId,
        eventType: a.eventType,
        deliveryId: a.deliveryId,
        source: "webhook",
      });
      insertQueueItem.run(
        item.kind,
        JSON.stringify(item.payload),
        item.jobId,
        item.dedupeKey,
        a.maxAttempts,
        now,
        now,
        now,
        a.traceContext,
      );
    }
    log({ ...logRow, status: 200, reason: fresh ? "accepted" : "duplicate" }, now);
    return fresh ? "accepted" : "duplicate";
  };

  const commit = groupCommit(conn);
  return {
    /** Resolves only after the receipt, queue item and log row are committed. */
    accept: (a: Accept, logRow: Omit<LogRow, "status" | "reason">) => commit(() => accept(a, logRow)),
    log: (row: LogRow) => commit(() => log(row, sqliteDate(new Date()))),
    secrets: async () => selectSecrets.all() as SecretRow[],
    close: async () => {
      conn.close();
    },
  };
}

type Op = { run: () => unknown; resolve: (v: unknown) => void; reject: (e: unknown) => void };
type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit: writes submitted in the same turn of the event loop share one transaction, so
 * the per-commit cost is paid once per batch instead of once per delivery. Each write runs in
 * its own savepoint: one failing write is rolled back and rejected alone. Nobody is answered
 * before the batch's COMMIT returns, so an acknowledged delivery is always durable.
 */
function groupCommit(conn: Database.Database) {
  let queue: Op[] = [];
  let scheduled = false;
  const savepoint = conn.transaction((fn: () => unknown) => fn());
  const batchTx = conn.transaction((batch: Op[], out: Outcome[]) => {
    for (const op of batch) {
      try {
        out.push({ ok: true, value: savepoint(op.run) });
      } catch (error) {
        out.push({ ok: false, error });
      }
    }
  });
  const flush = async () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    const out: Outcome[] = [];
    try {
      await withBusyRetry(() => {
        out.length = 0;
        batchTx.immediate(batch, out);
      });
    } catch (error) {
      for (const op of batch) op.reject(error);
      return;
    }
    batch.forEach((op, i) => {
      const o = out[i];
      if (o.ok) op.resolve(o.value);
      else op.reject(o.error);
    });
  };
  return <T>(run: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push({ run, resolve: (v) => resolve(v as T), reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
