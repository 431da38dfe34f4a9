import { z } from "zod";

// Operation runs: the one-run answer of GET /api/operations/{runId} (issue 5's contract, read
// leniently: extra fields are ignored) and the history list of GET /api/operations/history.

export const RUN_KINDS = ["reconcile", "replay", "rotate", "poll", "register"] as const;
export const runStateSchema = z.enum(["running", "succeeded", "failed"]);
export type RunState = z.infer<typeof runStateSchema>;

const json = z.json();

export const runSchema = z.object({
  id: z.string(),
  kind: z.string(),
  state: runStateSchema,
  progress: json.nullish(),
  summary: json.nullish(),
  error: z.string().nullish(),
  startedBy: z.string().nullish(),
  startedAt: z.string().nullish(),
  finishedAt: z.string().nullish(),
});
export type Run = z.infer<typeof runSchema>;

/** What every start button gets back: 202 {runId}. */
export const startedSchema = z.object({ runId: z.string().min(1) });

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

export const reconcileBodySchema = z.object({
  olderThanSeconds: z.number().int().min(0).max(7 * 86_400).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
});
export const replayBodySchema = z.object({
  subscriptionId: z.string().min(1).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
});
