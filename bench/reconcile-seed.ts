// The Tally side of the reconciliation benchmark: a fresh database that already knows the outcome
// of 99% of the platform's jobs (Job row, receipt, finished queue item). Of every hundred jobs one
// is missing its outcome: alternately never heard of at all, or received (a receipt) but never
// finished — receipt is not outcome, so reconciliation must catch both.
import Database from "better-sqlite3";
import { sqliteDate } from "@/lib/webhooks/store";

export type PlatformJob = { id: string; kind: string; status: string };

const OUTCOME: Record<string, string> = { completed: "stored", failed: "dead_lettered", cancelled: "cancelled" };

/** Writes the local state; returns the ids whose outcome is missing. */
export function seedTallyDb(file: string, jobs: PlatformJob[]): Set<string> {
  const sql = new Database(file);
  sql.pragma("journal_mode = WAL");
  sql.pragma("synchronous = OFF");
  const job =
    sql.prepare(`INSERT INTO "Job" ("id","kind","platformStatus","outcome","origin","attempts","settledAt","outcomeAt","createdAt","updatedAt")
    VALUES (?,?,?,?,'submitted',?,?,?,?,?)`);
  const receipt = sql.prepare(
    `INSERT INTO "Receipt" ("jobId","eventType","source","receivedAt") VALUES (?,?,'webhook',?)`,
  );
  const item =
    sql.prepare(`INSERT INTO "QueueItem" ("kind","payload","jobId","state","attempts","availableAt","createdAt","updatedAt","doneAt")
    VALUES ('process_job',?,?,'done',1,?,?,?,?)`);
  const missing = new Set<string>();
  const then = sqliteDate(new Date(Date.now() - 3_600_000));
  sql.transaction(() => {
    jobs.forEach((j, i) => {
      const event = `${j.kind}_completed`;
      if (i % 100 === 50) {
        missing.add(j.id);
        // every other missing one was received: a receipt and a pending Job, but no live queue item
        if ((i / 100) % 2 >= 1) {
          job.run(j.id, j.kind, j.status, "pending", 1, then, null, then, then);
          receipt.run(j.id, event, then);
        }
        return;
      }
      job.run(j.id, j.kind, j.status, OUTCOME[j.status] ?? "stored", 1, then, then, then, then);
      receipt.run(j.id, event, then);
      item.run(
        JSON.stringify({ jobId: j.id, eventType: event, deliveryId: null, source: "webhook" }),
        j.id,
        then,
        then,
        then,
        then,
      );
    });
  })();
  sql.pragma("wal_checkpoint(TRUNCATE)");
  sql.close();
  return missing;
}
