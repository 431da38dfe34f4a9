import { z } from "zod";

// The operations API's shapes, one set for the routes, the scripts and the browser: request bodies
// (parsed strictly, with reasons an operator can act on), the one-run answer of
// GET /api/operations/{runId} (read leniently by the browser: extra fields are ignored) and the
// history list of GET /api/operations{,/history}. No server-only imports: client components parse with it.

export const RUN_KINDS = ["reconcile", "replay", "rotate", "poll", "register"] as const;
export const runStateSchema = z.enum(["running", "succeeded", "failed"]);
export type RunState = z.infer<typeof runStateSchema>;

const json = z.json();
/** A run's params, progress and summary: JSON as written, or the raw text when it is unreadable. */
export type JsonValue = z.infer<typeof json>;

export const runSchema = z.object({
  id: z.string(),
  kind: z.string(),
  state: runStateSchema,
  params: json.nullish(),
  progress: json.nullish(),
  summary: json.nullish(),
  error: z.string().nullish(),
  startedBy: z.string().nullish(),
  startedAt: z.string().nullish(),
  finishedAt: z.string().nullish(),
});
export type Run = z.infer<typeof runSchema>;

const record = z.record(z.string(), z.unknown());
/** GET /api/operations/{runId}: one run as the server writes it (runSchema above reads it leniently). */
export const runViewSchema = z.object({
  id: z.string(),
  kind: z.string(),
  state: runStateSchema,
  params: record.nullable(),
  progress: record.nullable(),
  summary: record.nullable(),
  error: z.string().nullable(),
  startedBy: z.string(),
  startedAt: z.string(),
  heartbeatAt: z.string(),
  finishedAt: z.string().nullable(),
});

/** The last reconciliation, as the overview's tile shows it. */
export const lastRunSchema = z.object({
  id: z.string(),
  state: z.string(),
  startedBy: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  /** Flat figures from the run's summary (or its progress while it runs), e.g. { listed: 120, missing: 3 }. */
  figures: z.array(z.object({ name: z.string(), value: z.string() })),
});
export type LastRun = z.infer<typeof lastRunSchema>;

/** What every start button gets back: 202 {runId}. */
export const startedSchema = z.object({ runId: z.string().min(1) });
/** A start that may join a run of the same kind already running: 202 {runId, alreadyRunning}. */
export const acceptedSchema = startedSchema.extend({ alreadyRunning: z.boolean() });

export const historyQuerySchema = z.object({
  kind: z.preprocess((v) => (v === "" ? undefined : v), z.enum(RUN_KINDS).optional()),
  cursor: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(300).optional()),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

export const historyRowSchema = z.object({
  id: z.string(),
  kind: z.string(),
  state: runStateSchema,
  startedBy: z.string(),
  startedAt: z.string(),
  heartbeatAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  params: json.nullable(),
  progress: json.nullable(),
  summary: json.nullable(),
  error: z.string().nullable(),
});
export type HistoryRow = z.infer<typeof historyRowSchema>;

export const historyPageSchema = z.object({
  items: z.array(historyRowSchema),
  nextCursor: z.string().nullable(),
  /** any run of any kind still running (drives the live refresh) */
  running: z.number().int(),
});
export type HistoryPage = z.infer<typeof historyPageSchema>;

/** A path or body identifier: trimmed, non-empty, bounded. */
export const idParam = (name: string) =>
  z
    .string({ error: `${name} must be a string` })
    .trim()
    .min(1, { error: `${name} is empty` })
    .max(200, { error: `${name} is too long` });

const since = z.iso
  .datetime({ offset: true, error: "since must be an ISO date-time such as 2026-01-31T12:00:00Z" })
  .transform((s) => new Date(s));

export const reconcileBodySchema = z.strictObject({
  olderThanSeconds: z
    .number({ error: "olderThanSeconds must be a number" })
    .int({ error: "olderThanSeconds must be a whole number" })
    .min(0, { error: "olderThanSeconds must be at least 0" })
    .max(7 * 86_400, { error: "olderThanSeconds must be at most 604800 (7 days)" })
    .optional(),
  since: since.optional(),
  /** recent: only jobs created since the watermark (minus an overlap); full: the whole history; absent: full when due, else recent. */
  scope: z.enum(["recent", "full"], { error: 'scope must be "recent" or "full"' }).optional(),
});
export type ReconcileBody = z.output<typeof reconcileBodySchema>;

export const replayBodySchema = z.strictObject({
  subscriptionId: idParam("subscriptionId").optional(),
  since: since.optional(),
});
export type ReplayBody = z.output<typeof replayBodySchema>;

export const runParamsSchema = z.object({ runId: idParam("runId") });

/** GET /api/operations: the newest runs, optionally of one kind. */
export const runListQuerySchema = z.object({
  kind: z.enum(RUN_KINDS, { error: `kind must be one of ${RUN_KINDS.join(", ")}` }).optional(),
  limit: z.coerce.number({ error: "limit must be a number" }).int().min(1).max(200).default(50),
});
