import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { z } from "zod";
import { db, directQuery } from "../db";
import { eventTypeOf } from "../outbound";
import { ackStatement, type ClaimedItem } from "../queue";
import { type PlatformState, stateUrl } from "../platform";
import type { Attempt } from "./job-rows";
import type { ExtractRow, StoreNow } from "./store-extract-sqlite";

// A completed extract stored on PostgreSQL in one statement of data-modifying CTEs: the attempt (the
// Job upsert, its outcome set on the way when it was pending, and the attempt's timeline event), the
// result row and the outcome's timeline event. The same writes as the ORM path in store-results.ts and
// as store-extract-sqlite.ts, in one round trip and one commit instead of about eight (BEGIN, the
// statements, COMMIT): on PostgreSQL the hot path is bound by round trips (docs/development/
// performance.md, "Pipeline"). When an enabled destination subscribes to job.stored the statement
// writes nothing and says so: the ORM path then writes the outbox (lib/outbound/outbox.ts), kept in
// one place. Given the queue item being worked, its ack is one more CTE: no round trip of its own.
//
// One statement cannot update a row twice, so the outcome is part of the upsert: each SET that
// belongs to the outcome keeps the old value unless the job was pending. Whether this statement set
// the outcome comes from the row as it was under this statement's lock ("old", FOR UPDATE: in READ
// COMMITTED it waits for a concurrent writer and reads what it committed). The lock must be taken
// before the upsert, so the upsert reads from "old" ("locked"): referenced only in RETURNING, "old"
// ran after the upsert, found the row changed by its own statement and returned nothing, and two
// workers storing one pending job in the same millisecond both counted the outcome (seen in
// lib/jobs/handle-job.test.ts). A job that had no row yet was stored here when this statement
// inserted it (xmax = 0); when another statement inserted it first, when its outcomeAt is this
// statement's (a pending row written by a submit in between).

const storedRow = z.object({ settledAt: z.coerce.date().nullable(), settledNow: z.boolean(), acked: z.boolean() });

/** Given the queue `item` being worked, it is acked in the same statement once the job is written. */
export async function storeExtractPostgres(
  state: Extract<PlatformState, { kind: "extract" }>,
  a: Attempt,
  row: ExtractRow,
  item?: ClaimedItem,
): Promise<{ stored: StoreNow; acked?: boolean }> {
  const now = new Date();
  const settledAt = new Date(state.completedAt ?? now.getTime());
  const webhookAt = a.source === "webhook" ? now : null;
  const attempt = JSON.stringify({
    source: a.source,
    deliveryId: a.deliveryId ?? undefined,
    queueAttempt: a.queueAttempt,
    status: state.status,
  });
  const ifPending = (column: string) =>
    Prisma.sql`${Prisma.raw(`"${column}"`)} = CASE WHEN "Job"."outcome" = 'pending' THEN excluded.${Prisma.raw(`"${column}"`)} ELSE "Job".${Prisma.raw(`"${column}"`)} END`;
  const statement = Prisma.sql`
    WITH "subscribed" AS (
      SELECT 1 FROM "Destination" WHERE "enabled" AND ',' || "events" || ',' LIKE ${`%,${eventTypeOf("stored")},%`} LIMIT 1
    ), "old" AS MATERIALIZED (
      SELECT "outcome" FROM "Job" WHERE "id" = ${state.jobId} AND NOT EXISTS (SELECT 1 FROM "subscribed") FOR UPDATE
    ), "job" AS (
      INSERT INTO "Job" ("id", "kind", "url", "origin", "attempts", "platformStatus", "platformCreatedAt", "settledAt",
        "errorCode", "errorMessage", "errorRetryable", "lastWebhookAt", "createdAt", "updatedAt",
        "outcome", "outcomeAt", "resultCount", "tokensCharged")
      SELECT ${state.jobId}, 'extract', ${stateUrl(state)}, ${a.source}, 1, ${state.status}, ${new Date(state.createdAt)},
        ${settledAt}, NULL, NULL, NULL, ${webhookAt}, ${now}, ${now}, 'stored', ${now}, 1, ${row.tokensCharged}
      FROM (SELECT count(*) FROM "old") AS "locked"
      WHERE NOT EXISTS (SELECT 1 FROM "subscribed")
      ON CONFLICT ("id") DO UPDATE SET
        "platformStatus" = excluded."platformStatus", "platformCreatedAt" = excluded."platformCreatedAt",
        "settledAt" = excluded."settledAt", "errorCode" = NULL, "errorMessage" = NULL, "errorRetryable" = NULL,
        "attempts" = "Job"."attempts" + 1, "updatedAt" = excluded."updatedAt",
        ${ifPending("outcome")}, ${ifPending("outcomeAt")}, ${ifPending("resultCount")}, ${ifPending("tokensCharged")}
        ${webhookAt ? Prisma.sql`, "lastWebhookAt" = excluded."lastWebhookAt"` : Prisma.empty}
        ${a.needsUrl ? Prisma.sql`, "url" = excluded."url"` : Prisma.empty}
      RETURNING "id", "settledAt", CASE WHEN EXISTS (SELECT 1 FROM "old") THEN (SELECT "outcome" FROM "old") = 'pending'
        WHEN "Job"."xmax" = 0 THEN TRUE ELSE "outcomeAt" = ${now} END AS "settledNow"
    ), "result" AS (
      INSERT INTO "Result" ("jobId", "itemKey", "url", "status", "format", "markdown", "html", "markdownKey",
        "markdownCodec", "markdownSize", "htmlKey", "htmlCodec", "htmlSize", "metadata",
        "errorCode", "errorMessage", "tokensCharged", "createdAt")
      SELECT "id", '0', ${row.url}, 'completed', ${row.format}, ${row.markdown}, ${row.html}, ${row.markdownKey},
        ${row.markdownCodec}, ${row.markdownSize}::integer, ${row.htmlKey}, ${row.htmlCodec}, ${row.htmlSize}::integer,
        ${row.metadata}, NULL, NULL, ${row.tokensCharged}, ${now} FROM "job"
      ON CONFLICT ("jobId", "itemKey") DO NOTHING
    ), "events" AS (
      INSERT INTO "JobEvent" ("jobId", "at", "type", "detail")
      SELECT "job"."id", ${now}, "e"."type", "e"."detail" FROM "job"
        CROSS JOIN (VALUES (1, 'attempt', ${attempt}), (2, 'outcome', '{"outcome":"stored"}')) AS "e" ("n", "type", "detail")
      WHERE "e"."n" = 1 OR "job"."settledNow"
      ORDER BY "e"."n"
    ), "acked" AS (
      ${item ? ackStatement(item, now, Prisma.sql`EXISTS (SELECT 1 FROM "job")`) : Prisma.sql`SELECT 1 AS "id" WHERE FALSE`}
    )
    SELECT "settledAt", "settledNow", EXISTS (SELECT 1 FROM "acked") AS "acked" FROM "job"`;
  // On the process's direct pool: the ORM's compile and row interpreter cost more than this statement's client side.
  const rows = (await directQuery(statement)) ?? (await db().$queryRaw(statement));
  const [stored] = storedRow.array().parse(rows);
  if (!stored) return { stored: { kind: "outbox" } };
  const acked = item ? stored.acked : undefined;
  return {
    stored: stored.settledNow ? { kind: "stored", settledAt: stored.settledAt } : { kind: "already" },
    acked,
  };
}
