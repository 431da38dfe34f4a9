import { z } from "zod";
import {
  changeCountsSchema,
  CHANGES,
  escalationSchema,
  maxTokensSchema,
  RUN_STATES,
  runCountsSchema,
  URL_STATES,
} from "../runs/client";

// The collections API's contracts (issue 25), shared by the routes, the domain and the pages (no
// server code here). Field names and values are the issue's: they are a contract.

export const OVERLAPS = ["skip", "queue"] as const;
export type Overlap = (typeof OVERLAPS)[number];
export const TRIGGERS = ["schedule", "manual"] as const;
export const TICK_OUTCOMES = ["started", "skipped", "queued"] as const;

const formats = z
  .array(z.enum(["markdown", "html"], { error: "each format must be markdown or html" }))
  .min(1, { error: "formats must name at least one format" })
  .max(2)
  .refine((f) => new Set(f).size === f.length, { error: "formats must not repeat" });

const KEEP_BODIES_RUNS_ERROR = "keepBodiesRuns must be a whole number of runs from 1 to 100000, or null (no limit)";
/** Issue 40: how many of a collection's last runs keep their page bodies (null: all). */
export const keepBodiesRunsSchema = z
  .number({ error: KEEP_BODIES_RUNS_ERROR })
  .int({ error: KEEP_BODIES_RUNS_ERROR })
  .min(1, { error: KEEP_BODIES_RUNS_ERROR })
  .max(100_000, { error: KEEP_BODIES_RUNS_ERROR })
  .nullable()
  .optional();

/** The settings a collection's JSON body may carry (create: name and urls required; update: any). */
const settings = {
  schedule: z.string().trim().max(100, { error: "schedule must be at most 100 characters" }).nullable().optional(),
  timezone: z.string().trim().min(1).max(64, { error: "timezone must be at most 64 characters" }).optional(),
  formats: formats.optional(),
  renderJs: z.boolean().optional(),
  ignorePatterns: z.array(z.string(), { error: "ignorePatterns must be a list of regular expressions" }).optional(),
  overlap: z.enum(OVERLAPS, { error: "overlap must be skip or queue" }).optional(),
  /** Issue 39: content checks (validated on the server), the ladder (null: the default), caps per run and per month. */
  checks: z.unknown().optional(),
  escalation: escalationSchema.nullable().optional(),
  maxTokens: maxTokensSchema,
  monthlyMaxTokens: maxTokensSchema,
  /** Issue 40: keep the bodies of its last N completed runs (older runs' results lose them); null: no limit. */
  keepBodiesRuns: keepBodiesRunsSchema,
};

export const createCollectionBodySchema = z.strictObject({
  name: z.string().trim().min(1, { error: "name is required" }).max(200),
  urls: z.array(z.string().max(100_000), { error: "urls must be a list of strings" }),
  ...settings,
});
export type CreateCollectionBody = z.infer<typeof createCollectionBodySchema>;

export const updateCollectionBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  urls: z.array(z.string().max(100_000), { error: "urls must be a list of strings" }).optional(),
  ...settings,
});
export type UpdateCollectionBody = z.infer<typeof updateCollectionBodySchema>;

/** Query of a text/plain or text/csv body: the settings a JSON body would carry. */
export const collectionTextQuerySchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  schedule: z.string().trim().max(100).optional(),
  timezone: z.string().trim().min(1).max(64).optional(),
  overlap: z.enum(OVERLAPS, { error: "overlap must be skip or queue" }).optional(),
  renderJs: z.enum(["true", "false", "1", "0"]).optional(),
  formats: z
    .string()
    .regex(/^(markdown|html)(,(markdown|html))?$/, { error: "formats must be markdown, html or markdown,html" })
    .optional(),
});

export const collectionSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  urlCount: z.number(),
  schedule: z.string().nullable(),
  timezone: z.string(),
  nextRunAt: z.string().nullable(),
  paused: z.boolean(),
});
export type CollectionSummary = z.infer<typeof collectionSummarySchema>;

export const collectionRunSchema = z.object({
  id: z.string(),
  state: z.enum(RUN_STATES),
  trigger: z.enum(TRIGGERS),
  counts: runCountsSchema,
  changes: changeCountsSchema.nullable(),
  createdAt: z.string(),
});
export type CollectionRun = z.infer<typeof collectionRunSchema>;

export const collectionTickSchema = z.object({
  scheduledFor: z.string(),
  outcome: z.enum(TICK_OUTCOMES),
  runId: z.string().nullable(),
  reason: z.string().nullable(),
});

export const collectionListItemSchema = collectionSummarySchema.extend({
  scheduleText: z.string().nullable(),
  lastRun: collectionRunSchema.nullable(),
});
export type CollectionListItem = z.infer<typeof collectionListItemSchema>;

export const collectionListSchema = z.object({
  items: z.array(collectionListItemSchema),
  nextCursor: z.string().nullable(),
});
export type CollectionList = z.infer<typeof collectionListSchema>;

export const collectionListQuerySchema = z.object({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const collectionDetailSchema = collectionSummarySchema.extend({
  scheduleText: z.string().nullable(),
  formats: z.array(z.enum(["markdown", "html"])),
  renderJs: z.boolean(),
  ignorePatterns: z.array(z.string()),
  overlap: z.enum(OVERLAPS),
  checks: z.record(z.string(), z.unknown()).nullable(),
  escalation: z.array(z.record(z.string(), z.unknown())).nullable(),
  maxTokens: z.number().nullable(),
  monthlyMaxTokens: z.number().nullable(),
  /** Issue 40: the bodies of its last N completed runs are kept, older runs' removed; null: no limit. */
  keepBodiesRuns: z.number().nullable(),
  /** Tokens its runs were charged this calendar month (UTC). */
  tokensThisMonth: z.number(),
  queuedFor: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** Its last 20 runs, newest first. */
  runs: z.array(collectionRunSchema),
  /** Its last 20 scheduled ticks (started, skipped with the reason, queued), newest first. */
  ticks: z.array(collectionTickSchema),
  /** The list, one URL a line (for the edit form); only on GET /api/collections/{id}?urls=1. */
  urls: z.string().optional(),
});
export type CollectionDetail = z.infer<typeof collectionDetailSchema>;

export const collectionDetailQuerySchema = z.object({
  urls: z.enum(["0", "1", "true", "false"]).optional(),
});

export const startedRunSchema = z.object({ runId: z.string() });

// --- a run's changes ---

export const changeItemSchema = z.object({
  url: z.string(),
  change: z.enum(CHANGES),
  resultId: z.number().nullable(),
  previousResultId: z.number().nullable(),
});
export type ChangeItem = z.infer<typeof changeItemSchema>;

export const changePageSchema = z.object({
  items: z.array(changeItemSchema),
  counts: changeCountsSchema,
  nextCursor: z.string().nullable(),
});
export type ChangePage = z.infer<typeof changePageSchema>;

export const changesQuerySchema = z.object({
  change: z.enum(CHANGES, { error: `change must be one of ${CHANGES.join(", ")}` }).optional(),
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const diffQuerySchema = z.object({ url: z.string().min(1).max(4096) });

/** The body of the outbound event `url.changed`. */
export type UrlChangedData = {
  runId: string;
  collectionId: string;
  url: string;
  change: "new" | "changed";
  resultId: number | null;
  previousResultId: number | null;
};

// --- one URL's history across the collection's runs ---

/** GET /api/collections/{id}/urls/history?url=…: the URL as the list holds it (checked like a list line). */
export const urlHistoryQuerySchema = z.object({
  url: z
    .string({ error: "url is required (?url=… as the collection's list holds it)" })
    .trim()
    .min(1, { error: "url is required (?url=… as the collection's list holds it)" })
    .max(4096, { error: "url must be at most 4096 characters" }),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const urlHistoryItemSchema = z.object({
  runId: z.string(),
  /** When the run started submitting (its creation time until then). */
  startedAt: z.string(),
  trigger: z.enum(TRIGGERS),
  state: z.enum(URL_STATES),
  errorCode: z.string().nullable(),
  /** Against the collection's previous run; null until the run is classified. */
  change: z.enum(CHANGES).nullable(),
  /** The rung that stored it (or the last one tried), by index in the run's ladder and by name. */
  rung: z.number(),
  rungName: z.string(),
  rungsTried: z.array(z.string()),
  tokensCharged: z.number(),
  /** The last failed check and its excerpt: plain text, to render inertly. */
  checkName: z.string().nullable(),
  checkExcerpt: z.string().nullable(),
});
export type UrlHistoryItem = z.infer<typeof urlHistoryItemSchema>;

export const urlHistorySchema = z.object({
  url: z.string(),
  /** The rung the collection's next run starts this URL at (CollectionRung); null: the first rung. */
  remembered: z.object({ rung: z.number(), rungName: z.string(), updatedAt: z.string() }).nullable(),
  /** Newest run first; runs whose list did not hold the URL are left out. */
  items: z.array(urlHistoryItemSchema),
  nextCursor: z.string().nullable(),
});
export type UrlHistory = z.infer<typeof urlHistorySchema>;
