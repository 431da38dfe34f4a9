import { z } from "zod";
import { escalationSchema, maxTokensSchema } from "./escalation";

// The runs API's contracts, shared by the routes, the domain, the CLI and the pages (no server code
// here). Field names are the (#24): they are a contract.

/** `suspect` (issue 39): the page failed a content check (or the platform said BLOCKED) and waits for the next rung. */
export const URL_STATES = ["pending", "submitted", "stored", "retrying", "suspect", "failed"] as const;
export type UrlState = (typeof URL_STATES)[number];

export const RUN_STATES = ["submitting", "running", "completed", "cancelled"] as const;
export type RunState = (typeof RUN_STATES)[number];

/** Issue 50: the caps a chunk draws on: the run's own maxTokens, its collection's monthly cap. */
export const CAP_NAMES = ["run", "collection_month"] as const;
export type CapName = (typeof CAP_NAMES)[number];

/** The cap that last refused the run's next chunk and by how much: used + wanted - limit = over. */
export const capHitSchema = z.object({
  cap: z.enum(CAP_NAMES),
  limit: z.number(),
  used: z.number(),
  wanted: z.number(),
  over: z.number(),
});
export type CapHit = z.infer<typeof capHitSchema>;

/** The platform's limit per POST /v1/batch, and the default chunk size. */
export const MAX_BATCH_SIZE = 1000;

export const createRunBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  urls: z.array(z.string().max(100_000), { error: "urls must be a list of strings" }),
  formats: z
    .array(z.enum(["markdown", "html"], { error: "each format must be markdown or html" }))
    .min(1)
    .max(2)
    .optional(),
  renderJs: z.boolean().optional(),
  batchSize: z
    .number()
    .int()
    .min(1)
    .max(MAX_BATCH_SIZE, { error: `batchSize must be at most ${MAX_BATCH_SIZE}` })
    .optional(),
  ignoreInvalid: z.boolean().optional(),
  /** Content checks (issue 39): validated on the server by lib/content-checks parseChecks (it needs the HTML parser). */
  checks: z.unknown().optional(),
  escalation: escalationSchema.optional(),
  maxTokens: maxTokensSchema,
});
export type CreateRunBody = z.infer<typeof createRunBodySchema>;

/** Query of a text/plain or text/csv create: the options a JSON body would carry. */
export const createRunQuerySchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  batchSize: z.coerce.number().int().min(1).max(MAX_BATCH_SIZE).optional(),
  ignoreInvalid: z.enum(["true", "false", "1", "0"]).optional(),
  renderJs: z.enum(["true", "false", "1", "0"]).optional(),
  formats: z
    .string()
    .regex(/^(markdown|html)(,(markdown|html))?$/, { error: "formats must be markdown, html or markdown,html" })
    .optional(),
  maxTokens: z.coerce.number().int().min(1, { error: "must be 1 or more" }).max(1_000_000_000).optional(),
  /** `checks` and `escalation` as the JSON body would carry them, as JSON text (the /runs/new page sends them so). */
  checks: z
    .string()
    .max(64 * 1024)
    .optional(),
  escalation: z
    .string()
    .max(64 * 1024)
    .optional(),
});

export const createdRunSchema = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(RUN_STATES),
  total: z.number(),
  invalid: z.number(),
  duplicates: z.number(),
  createdAt: z.string(),
});
export type CreatedRun = z.infer<typeof createdRunSchema>;

export const runCountsSchema = z.object({
  pending: z.number(),
  submitted: z.number(),
  stored: z.number(),
  retrying: z.number(),
  suspect: z.number(),
  failed: z.number(),
});
export type RunCounts = z.infer<typeof runCountsSchema>;

export const CHANGES = ["new", "changed", "unchanged", "gone"] as const;
export type Change = (typeof CHANGES)[number];
export const changeCountsSchema = z.object({
  new: z.number(),
  changed: z.number(),
  unchanged: z.number(),
  gone: z.number(),
});
export type ChangeCounts = z.infer<typeof changeCountsSchema>;

export const runViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(RUN_STATES),
  total: z.number(),
  invalid: z.number(),
  duplicates: z.number(),
  counts: runCountsSchema,
  chunks: z.object({ total: z.number(), submitted: z.number() }),
  duplicateSubmits: z.number(),
  platformCalls: z.number(),
  batchSize: z.number(),
  createdBy: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  etaSeconds: z.number().nullable(),
  /** Collection runs (issue 25): the collection, what started the run, and its change counts once classified. */
  collectionId: z.string().nullable(),
  trigger: z.enum(["schedule", "manual"]).nullable(),
  changes: changeCountsSchema.nullable(),
  /** Spend (issue 39): tokens the platform charged, reserved by chunks in flight, the cap and why submitting stopped. */
  tokens: z.object({
    charged: z.number(),
    reserved: z.number(),
    max: z.number().nullable(),
    capReason: z.string().nullable(),
    /** Issue 50: which cap refused the run's next chunk last, and by how much (null: none has). */
    capHit: capHitSchema.nullable(),
  }),
  /** One run's page only (GET /api/runs/{id}): batches, URLs and tokens per rung of its ladder. */
  rungs: z
    .array(z.object({ rung: z.number(), name: z.string(), batches: z.number(), urls: z.number(), tokens: z.number() }))
    .optional(),
  /** One run's page only: the content checks its pages are judged by, the default set filled in. */
  checks: z
    .object({
      minTextLength: z.number(),
      mustContain: z.array(z.object({ text: z.string().optional(), selector: z.string().optional() })),
      mustNotContain: z.array(z.object({ text: z.string().optional(), selector: z.string().optional() })),
      detectBlocks: z.boolean(),
    })
    .optional(),
  /** One run's page only: its escalation ladder, rung 0 (the run's own options) first; one rung: no escalation. */
  ladder: z.array(z.object({ rung: z.number(), name: z.string() })).optional(),
  /**
   * One run's page only (issue 50): what the platform got for this run. `jobs`: the batch jobs its
   * chunks were accepted as; `duplicates` and `duplicateTokens`: the copies of chunks posted twice
   * (duplicateSubmits) and what the platform charged for them, on top of `tokens.charged`.
   */
  platform: z.object({ jobs: z.number(), duplicates: z.number(), duplicateTokens: z.number() }).optional(),
});
export type RunView = z.infer<typeof runViewSchema>;

export const runListSchema = z.object({ items: z.array(runViewSchema), nextCursor: z.string().nullable() });
export type RunList = z.infer<typeof runListSchema>;

export const runListQuerySchema = z.object({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const runUrlSchema = z.object({
  url: z.string(),
  state: z.enum(URL_STATES),
  attempts: z.number(),
  jobId: z.string().nullable(),
  itemKey: z.string().nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  storedAt: z.string().nullable(),
  /** Escalation (issue 39): the rung it is on, the rungs tried (names), tokens charged, the last failed check. */
  rung: z.number(),
  rungsTried: z.array(z.string()),
  tokensCharged: z.number(),
  checkName: z.string().nullable(),
  checkExcerpt: z.string().nullable(),
});
export type RunUrlView = z.infer<typeof runUrlSchema>;

export const runUrlPageSchema = z.object({ items: z.array(runUrlSchema), nextCursor: z.string().nullable() });

export const runUrlsQuerySchema = z.object({
  state: z.enum(URL_STATES, { error: `state must be one of ${URL_STATES.join(", ")}` }).optional(),
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const runExportQuerySchema = z.object({
  format: z.enum(["csv", "jsonl"], { error: "format must be csv or jsonl" }).default("csv"),
  state: z.enum(URL_STATES).optional(),
  changes: z.enum(["only"], { error: "changes must be only" }).optional(),
});

/** The body of the outbound event `run.completed`. */
export type RunCompletedData = {
  runId: string;
  name: string;
  total: number;
  stored: number;
  failed: number;
  duplicateSubmits: number;
  platformCalls: number;
  tokensCharged: number;
  maxTokens: number | null;
  capReason: string | null;
};
