import "server-only";
import { z } from "zod";
import { sqlInt, type Db, type Tx } from "../db";

/** Anything that can run raw SQL: the client, or a caller's interactive transaction. */
export type DbOrTx = Db | Tx;

export type QueueState = "ready" | "leased" | "done" | "dead";

// Raw RETURNING rows come back with driver types (Date for DATETIME, number or bigint for
// INTEGER); parse them rather than trust them.

export const claimedRowSchema = z.object({
  id: sqlInt,
  kind: z.string(),
  payload: z.string(),
  jobId: z.string().nullable(),
  dedupeKey: z.string().nullable(),
  attempts: sqlInt,
  maxAttempts: sqlInt,
  leaseOwner: z.string(),
  leaseExpiresAt: z.coerce.date(),
  /** Where the item's trace comes from (lib/tracing: queueTraceContext / queueParent); null with tracing off. */
  traceContext: z.string().nullable().default(null),
});

/** The head of the Job row an item is about, as the claim read it (PostgreSQL), or null with no row. */
export const itemJobSchema = z.object({ kind: z.string(), outcome: z.string(), url: z.string().nullable() });
export type ItemJob = z.infer<typeof itemJobSchema>;

/**
 * An item this worker holds a lease on; `leaseOwner` is unique per claim and fences every update.
 * `job`: on PostgreSQL claim() reads the head of the item's Job row in the same statement (one round
 * trip less a job on the worker's hot path); undefined where it was not read (SQLite, sibling claims).
 */
export type ClaimedItem = z.infer<typeof claimedRowSchema> & { job?: ItemJob | null };

export type EnqueueOptions = {
  /** At most one live (ready/leased) item per key; cleared when the item is done or dead. */
  dedupeKey?: string | null;
  availableAt?: Date;
  jobId?: string | null;
  /** Defaults to TALLY_QUEUE_MAX_ATTEMPTS. */
  maxAttempts?: number;
  /** Claim order: PRIORITY_FRESH (default) before PRIORITY_BACKLOG; oldest first within each. */
  priority?: number;
  /**
   * With tracing on, the item carries the active span's context: its first attempt continues that trace
   * (`parent`, the default), or starts one of its own linked to it (`link`: replays, reconciliation).
   */
  trace?: "parent" | "link";
};

/** Today's work: webhooks, submits, polls, runs, retries. */
export const PRIORITY_FRESH = 0;
/** A backlog found by reconciliation (history Tally never heard of): drained after fresh work. */
export const PRIORITY_BACKLOG = 1;

export type EnqueueItem = EnqueueOptions & { kind: string; payload: unknown };
