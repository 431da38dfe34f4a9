import "server-only";
import type { SqliteTx } from "../db";
import { eventTypeOf, parseEvents } from "../outbound";
import { type PlatformState, stateUrl } from "../platform";
import { sqliteDate } from "../runtime";
import type { Attempt } from "./job-rows";
import type { BodyRefs } from "./keep-bodies";

// A completed extract stored on SQLite in one synchronous transaction on the app's connection
// (directSqliteTransaction, lib/db.ts): the same writes as the ORM path in store-results.ts (the
// attempt, the result row, the outcome once, two timeline events) as prepared statements, about a
// tenth of the ORM's cost per job. When an enabled destination subscribes to job.stored it writes
// nothing and says so: the ORM path then writes the outbox (lib/outbound/outbox.ts), kept in one place.

const at = (d: Date | null) => (d === null ? null : sqliteDate(d));

/** The result row, its large bodies already in the body store (keep-bodies.ts) and named by reference. */
export type ExtractRow = BodyRefs & {
  url: string | null;
  format: string;
  markdown: string | null;
  html: string | null;
  metadata: string | null;
  tokensCharged: number;
};

export type StoreNow =
  | { kind: "stored"; settledAt: Date | null }
  | { kind: "already" } // the outcome was set before (a duplicate or a racing worker): nothing more
  | { kind: "outbox" }; // nothing written: the ORM path must store it

const destinationRow = (r: unknown) => (r as { events: string }).events;

export function storeExtractNow(
  sqlite: SqliteTx,
  state: Extract<PlatformState, { kind: "extract" }>,
  a: Attempt,
  row: ExtractRow,
): StoreNow {
  const event = eventTypeOf("stored");
  const subscribed = sqlite
    .all(`SELECT "events" FROM "Destination" WHERE "enabled" = 1`)
    .some((d) => event !== undefined && parseEvents(destinationRow(d)).includes(event));
  if (subscribed) return { kind: "outbox" };

  const now = new Date();
  const settledAt = new Date(state.completedAt ?? now.getTime());
  const webhookAt = a.source === "webhook" ? now : null;
  const addEvent = (type: string, detail: unknown) =>
    sqlite.run(
      `INSERT INTO "JobEvent" ("jobId", "at", "type", "detail") VALUES (?, ?, ?, ?)`,
      state.jobId,
      at(new Date()),
      type,
      JSON.stringify(detail),
    );
  const attempt = {
    source: a.source,
    deliveryId: a.deliveryId ?? undefined,
    queueAttempt: a.queueAttempt,
    status: state.status,
  };
  const insertResult = () =>
    sqlite.run(
      `INSERT INTO "Result" ("jobId", "itemKey", "url", "status", "format", "markdown", "html", "markdownKey",
          "markdownCodec", "markdownSize", "htmlKey", "htmlCodec", "htmlSize", "metadata",
          "errorCode", "errorMessage", "tokensCharged", "createdAt")
        VALUES (?, '0', ?, 'completed', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?)
        ON CONFLICT ("jobId", "itemKey") DO NOTHING`,
      state.jobId,
      row.url,
      row.format,
      row.markdown,
      row.html,
      row.markdownKey,
      row.markdownCodec,
      row.markdownSize,
      row.htmlKey,
      row.htmlCodec,
      row.htmlSize,
      row.metadata,
      row.tokensCharged,
      at(now),
    );

  // A job Tally has not seen before (delivered by webhook, found by reconciliation): its row goes in
  // already stored, one write of each of its indexes instead of a pending row and then its outcome.
  const fresh = sqlite.run(
    `INSERT INTO "Job" ("id", "kind", "url", "origin", "attempts", "platformStatus", "platformCreatedAt", "settledAt",
        "lastWebhookAt", "outcome", "outcomeAt", "resultCount", "tokensCharged", "createdAt", "updatedAt")
      VALUES (?, 'extract', ?, ?, 1, ?, ?, ?, ?, 'stored', ?, 1, ?, ?, ?)
      ON CONFLICT ("id") DO NOTHING`,

    state.jobId,
    stateUrl(state),
    a.source,
    state.status,
    at(new Date(state.createdAt)),
    at(settledAt),
    at(webhookAt),
    at(now),
    row.tokensCharged,
    at(now),
    at(now),
  );
  if (fresh.changes === 1) {
    addEvent("attempt", attempt);
    insertResult();
    addEvent("outcome", { outcome: "stored" });
    return { kind: "stored", settledAt };
  }

  // A job Tally knows (submitted through it, or a pending row from an earlier attempt): the attempt
  // recorded on its row, then the outcome set only if it is still pending.
  sqlite.run(
    `UPDATE "Job" SET "platformStatus" = ?, "platformCreatedAt" = ?, "settledAt" = ?, "errorCode" = NULL,
        "errorMessage" = NULL, "errorRetryable" = NULL, "attempts" = "attempts" + 1, "updatedAt" = ?
        ${webhookAt ? `, "lastWebhookAt" = ?` : ""}
        ${a.needsUrl ? `, "url" = ?` : ""}
      WHERE "id" = ?`,
    state.status,
    at(new Date(state.createdAt)),
    at(settledAt),
    at(now),
    ...(webhookAt ? [at(webhookAt)] : []),
    ...(a.needsUrl ? [stateUrl(state)] : []),
    state.jobId,
  );
  addEvent("attempt", attempt);
  insertResult();
  const settled = sqlite.run(
    `UPDATE "Job" SET "outcome" = 'stored', "outcomeAt" = ?, "updatedAt" = ?, "resultCount" = 1, "tokensCharged" = ?
      WHERE "id" = ? AND "outcome" = 'pending'`,
    at(now),
    at(now),
    row.tokensCharged,
    state.jobId,
  );
  if (settled.changes === 0) return { kind: "already" };
  addEvent("outcome", { outcome: "stored" });
  return { kind: "stored", settledAt };
}
