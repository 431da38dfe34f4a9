import "server-only";
import { z } from "zod";
import { JOB_OUTCOMES, JOB_STATUSES } from "../platform";
import { cursorParam, intId } from "../keyset";
import { feedWindow } from "./position";

// Query schemas of the three pull routes (per-job results, change feed, export). Bad values answer
// 400 with a reason through lib/http/operator-route.ts; nothing here can reach a 5xx.

const blankAsUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsUndefined, schema.optional());

const limit = (fallback: number, max: number) =>
  z.preprocess(
    blankAsUndefined,
    z.coerce
      .number({ error: "must be a number" })
      .int({ error: "must be a whole number" })
      .min(1, { error: "must be at least 1" })
      .max(max, { error: `must be at most ${max}` })
      .default(fallback),
  );

/** A cursor of one list (by tag) decoded to its position; anything else is a 400 with a reason. The
 * list's tag and position size are read when a request is parsed (the feed's depend on the store). */
const cursorOf = (list: () => { tag: string; parts: number }) =>
  cursorParam(() => {
    const { tag, parts } = list();
    return { tag, position: z.array(intId).length(parts) };
  });

const instant = optional(
  z
    .string()
    .max(40)
    .refine((v) => !Number.isNaN(Date.parse(v)), { error: "must be a date and time, e.g. 2026-11-29T10:00:00Z" })
    .transform((v) => new Date(v)),
);

const kind = optional(z.enum(["extract", "batch", "crawl"], { error: "must be extract, batch or crawl" }));
const jobId = optional(z.string().max(200));

export const JOB_RESULTS_TAG = "r1";
export const jobResultsParamsSchema = z.object({ jobId: z.string().min(1).max(200) });
/** An item's status as the platform reported it: completed (with content), failed (with a reason) or cancelled. */
export const ITEM_STATUSES = ["completed", "failed", "cancelled"] as const;
export const jobResultsQuerySchema = z.object({
  cursor: cursorOf(() => ({ tag: JOB_RESULTS_TAG, parts: 1 })),
  limit: limit(100, 1000),
  status: optional(z.enum(ITEM_STATUSES, { error: `must be one of ${ITEM_STATUSES.join(", ")}` })),
});
export type JobResultsQuery = z.output<typeof jobResultsQuerySchema>;

export const feedQuerySchema = z.object({
  after: cursorOf(() => feedWindow()),
  limit: limit(100, 1000),
  kind,
  jobId,
});
export type FeedQuery = z.output<typeof feedQuerySchema>;

/**
 * The export takes the Jobs list's own filters (status, outcome, kind, q, from, to: same names and
 * meaning as GET /api/jobs, so the Jobs page links its filters as they are) plus jobId, and
 * since/until on when a result was stored.
 */
export const exportQuerySchema = z
  .object({
    format: z.preprocess(
      blankAsUndefined,
      z.enum(["jsonl", "csv"], { error: "must be jsonl or csv" }).default("jsonl"),
    ),
    since: instant,
    until: instant,
    kind,
    jobId,
    status: optional(z.enum(JOB_STATUSES, { error: `must be one of ${JOB_STATUSES.join(", ")}` })),
    outcome: optional(z.enum(JOB_OUTCOMES, { error: `must be one of ${JOB_OUTCOMES.join(", ")}` })),
    q: optional(z.string().trim().max(2000)),
    from: instant,
    to: instant,
  })
  .check((ctx) => {
    const v = ctx.value;
    if (v.since && v.until && v.since > v.until)
      ctx.issues.push({ code: "custom", input: v, path: ["since"], message: "must not be after until" });
    if (v.from && v.to && v.from > v.to)
      ctx.issues.push({ code: "custom", input: v, path: ["from"], message: "must not be after to" });
  });
export type ExportQuery = z.output<typeof exportQuerySchema>;

/**
 * One stored result as Tally hands it out — the pull routes, the export, an outbound event's inline
 * results — with the full content and its metadata parsed. The one definition: every type of it below
 * and elsewhere (the job page's preview) is derived from this schema.
 */
export const resultItemSchema = z.object({
  itemKey: z.string(),
  url: z.string().nullable(),
  status: z.string(),
  format: z.string(),
  markdown: z.string().nullable(),
  html: z.string().nullable(),
  bodyError: z
    .string()
    .nullable()
    .describe(
      "Set when the result had a body that cannot be read back as stored, starting with its code: `body_missing` (no object in the body store), `body_corrupt` (its bytes no longer hash to its key), or `body_unavailable` (the body store did not answer now: the row and its body are kept, and read again once the store answers; ask for the page again later); or `body removed by retention …`. It names the result and the body, and markdown or html is null for that reason. null otherwise.",
    ),
  metadata: z.unknown(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  tokensCharged: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type ResultItem = z.infer<typeof resultItemSchema>;

export const feedItemSchema = resultItemSchema.extend({ jobId: z.string(), kind: z.string() });
export type FeedItem = z.infer<typeof feedItemSchema>;

export const jobResultsPageSchema = z.object({ items: z.array(resultItemSchema), nextCursor: z.string().nullable() });
export type JobResultsPage = z.infer<typeof jobResultsPageSchema>;

/** nextCursor is never null: with nothing newer it is the position to poll from. */
export const feedPageSchema = z.object({
  items: z.array(feedItemSchema),
  nextCursor: z.string(),
  hasMore: z.boolean(),
});
export type FeedPage = z.infer<typeof feedPageSchema>;

/** A result on the job's page: its content cut to a preview size (truncated says so), no metadata. */
export const resultPreviewSchema = resultItemSchema.omit({ metadata: true, createdAt: true }).extend({
  id: z.number().int(),
  truncated: z.boolean(),
  /** Issue 39: set and not `ok` when a content check withheld the body (the check's name and a plain-text excerpt). */
  checkVerdict: z.string().nullable().optional(),
  checkName: z.string().nullable().optional(),
  checkExcerpt: z.string().nullable().optional(),
});
export type ResultPreview = z.infer<typeof resultPreviewSchema>;
