import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { z } from "zod";
import { db, directQuery, sqlInt, type Tx } from "../db";
import { itemJobSchema, type DbOrTx, type ItemJob } from "../queue";
import { type PlatformState, stateUrl } from "../platform";
import type { JobSource } from "./process-job";

// The Job row's statements on the worker's hot path, in raw SQL that runs on SQLite and PostgreSQL
// alike. Prisma 6.19 compiles every model query in WebAssembly on the main thread (about 1 ms each,
// no plan cache); a raw statement costs a fifth of that, and a job passes through about ten of them
// (bench/pipeline.ts, docs/development/performance.md "Pipeline").

/** What the handler needs to know before it asks the platform: the job's kind, outcome and URL, or null.
 * The same head a claim reads beside its item on PostgreSQL (ClaimedItem.job). */
export async function findJobHead(jobId: string): Promise<ItemJob | null> {
  // On the store's connection directly (SQLite's, PostgreSQL's direct pool): the ORM costs several times the read.
  const statement = Prisma.sql`SELECT "kind", "outcome", "url" FROM "Job" WHERE "id" = ${jobId}`;
  const rows = (await directQuery(statement)) ?? (await db().$queryRaw(statement));
  return itemJobSchema.array().parse(rows)[0] ?? null;
}

export type Attempt = {
  source: JobSource;
  deliveryId?: string | null;
  /** The queue item's attempt (claims count them), shown on the timeline. */
  queueAttempt: number;
  /** Rows made by replay or reconciliation may lack the URL; the platform's document has it. */
  needsUrl: boolean;
};

const stateRow = z.object({ id: z.string(), attempts: sqlInt });

/**
 * Upserts the Job row with what the platform says now, counts the attempt, and logs it on the
 * timeline: one INSERT … ON CONFLICT DO UPDATE and one event, in the caller's transaction.
 */
export async function recordState(tx: Tx, state: PlatformState, a: Attempt): Promise<{ id: string; attempts: number }> {
  const settled = state.status === "completed" || state.status === "failed" || state.status === "cancelled";
  const now = new Date();
  const settledAt = settled ? new Date(state.completedAt ?? now.getTime()) : null;
  const webhookAt = a.source === "webhook" ? now : null;
  const rows = await tx.$queryRaw`
    INSERT INTO "Job" ("id", "kind", "url", "origin", "attempts", "platformStatus", "platformCreatedAt", "settledAt",
      "errorCode", "errorMessage", "errorRetryable", "lastWebhookAt", "createdAt", "updatedAt")
    VALUES (${state.jobId}, ${state.kind}, ${stateUrl(state)}, ${a.source}, 1, ${state.status}, ${new Date(state.createdAt)},
      ${settledAt}, ${state.error?.code ?? null}, ${state.error?.message ?? null}, ${state.error?.retryable ?? null},
      ${webhookAt}, ${now}, ${now})
    ON CONFLICT ("id") DO UPDATE SET
      "platformStatus" = excluded."platformStatus", "platformCreatedAt" = excluded."platformCreatedAt",
      "settledAt" = excluded."settledAt", "errorCode" = excluded."errorCode", "errorMessage" = excluded."errorMessage",
      "errorRetryable" = excluded."errorRetryable", "attempts" = "Job"."attempts" + 1, "updatedAt" = excluded."updatedAt"
      ${webhookAt ? Prisma.sql`, "lastWebhookAt" = excluded."lastWebhookAt"` : Prisma.empty}
      ${a.needsUrl ? Prisma.sql`, "url" = excluded."url"` : Prisma.empty}
    RETURNING "id", "attempts"`;
  const job = stateRow.array().parse(rows)[0]!;
  await insertEvent(tx, job.id, "attempt", {
    source: a.source,
    deliveryId: a.deliveryId ?? undefined,
    queueAttempt: a.queueAttempt,
    status: state.status,
  });
  return job;
}

/** One timeline event (JobEvent), detail as JSON. */
export async function insertEvent(tx: DbOrTx, jobId: string, type: string, detail?: unknown): Promise<void> {
  const text = detail === undefined ? null : JSON.stringify(detail);
  await tx.$executeRaw`INSERT INTO "JobEvent" ("jobId", "at", "type", "detail") VALUES (${jobId}, ${new Date()}, ${type}, ${text})`;
}

const settledRow = z.object({ kind: z.string(), settledAt: z.coerce.date().nullable() });

/**
 * UPDATE … WHERE outcome = 'pending': sets the outcome once. Returns the job's kind and settledAt
 * when this call set it, null when the outcome was already set (or there is no such job).
 */
export async function setOutcomeOnce(
  tx: Tx,
  jobId: string,
  outcome: string,
  extra: { resultCount?: number; tokensCharged?: number | null; resubmittedAsId?: string },
): Promise<z.infer<typeof settledRow> | null> {
  const now = new Date();
  const sets = [Prisma.sql`"outcome" = ${outcome}`, Prisma.sql`"outcomeAt" = ${now}`, Prisma.sql`"updatedAt" = ${now}`];
  if (extra.resultCount !== undefined) sets.push(Prisma.sql`"resultCount" = ${extra.resultCount}`);
  if (extra.tokensCharged !== undefined) sets.push(Prisma.sql`"tokensCharged" = ${extra.tokensCharged}`);
  if (extra.resubmittedAsId !== undefined) sets.push(Prisma.sql`"resubmittedAsId" = ${extra.resubmittedAsId}`);
  const rows = await tx.$queryRaw`
    UPDATE "Job" SET ${Prisma.join(sets)} WHERE "id" = ${jobId} AND "outcome" = 'pending'
    RETURNING "kind", "settledAt"`;
  return settledRow.array().parse(rows)[0] ?? null;
}
