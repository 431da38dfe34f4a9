import { z } from "zod";

// Answers of the dead-letter routes, shared by lib/dead-letters, the server page and the browser
// (which parses them): GET /api/dead-letters and POST /api/dead-letters/{retry,discard}.

export const deadLetterRowSchema = z.object({
  id: z.number().int(),
  jobId: z.string().nullable(),
  queueItemId: z.number().int().nullable(),
  kind: z.string(),
  errorCode: z.string().nullable(),
  errorMessage: z.string(),
  attempts: z.number().int(),
  state: z.string(),
  resolution: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  createdAt: z.string(),
  job: z
    .object({
      kind: z.string(),
      url: z.string().nullable(),
      outcome: z.string(),
      platformStatus: z.string(),
      resubmittedAsId: z.string().nullable(),
    })
    .nullable(),
});
export type DeadLetterRow = z.infer<typeof deadLetterRowSchema>;

export const deadLetterPageSchema = z.object({
  items: z.array(deadLetterRowSchema),
  nextCursor: z.string().nullable(),
  /** How many rows the filter matches in all pages. */
  total: z.number().int(),
  facets: z.object({ kinds: z.array(z.string()), errorCodes: z.array(z.string()) }),
});
export type DeadLetterPage = z.infer<typeof deadLetterPageSchema>;

export const actionSummarySchema = z.object({
  action: z.enum(["retry", "discard"]),
  /** Rows the request named or the filter matched. */
  requested: z.number().int(),
  /** Rows this request moved out of "open". */
  changed: z.number().int(),
  /** Rows no longer open (or gone) when their turn came: changed by someone else meanwhile. */
  skipped: z.number().int(),
  /** Rows whose retry did not work: they stay open, or a new dead letter says why; see `results`. */
  failed: z.number().int(),
  /** Per row, at most the first 200. */
  results: z.array(
    z.object({
      id: z.number().int(),
      result: z.string(),
      message: z.string().optional(),
      newJobId: z.string().optional(),
    }),
  ),
});
export type ActionSummary = z.infer<typeof actionSummarySchema>;
