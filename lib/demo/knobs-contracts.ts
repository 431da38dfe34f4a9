import { z } from "zod";

// The simulator's fault knobs the Settings page edits in demo mode (GET/POST /api/simulator/config).
// A subset of the simulator's own config: shares between 0 and 1, and the webhook delay range.

const rate = z
  .number({ error: "must be a number" })
  .min(0, { error: "must be at least 0" })
  .max(1, { error: "must be at most 1" });
const bytes = z
  .number({ error: "must be a number" })
  .int({ error: "must be whole bytes" })
  .min(0, { error: "must be at least 0" })
  .max(16_000_000, { error: "must be at most 16000000" });
const ms = z.number({ error: "must be a number" }).int({ error: "must be whole milliseconds" }).min(0).max(3_600_000);

export const simulatorKnobsSchema = z.object({
  failureRate: rate,
  retryableShare: rate,
  itemFailureRate: rate,
  rateLimitRate: rate,
  serverErrorRate: rate,
  slowResponseRate: rate,
  webhookDropRate: rate,
  webhookDuplicateRate: rate,
  webhookDelayRate: rate,
  earlyWebhookRate: rate,
  /** The share of reads of a page served before that get a new version (collections show changes). */
  contentChangeRate: rate,
  /** The share of pages that are hostile: deep nesting, huge sibling runs, hundreds of thousands of elements. */
  hostilePageRate: rate,
  webhookDelayMs: z
    .tuple([ms, ms])
    .refine(([min, max]) => min <= max, { error: "the shortest delay must not exceed the longest" }),
  /** How long a job runs on the platform, shortest and longest (a long one can be cancelled in time). */
  jobDurationMs: z
    .tuple([ms, ms])
    .refine(([min, max]) => min <= max, { error: "the shortest duration must not exceed the longest" }),
  /** The size of a page's markdown in bytes, smallest and largest (html about three times that). */
  bodyBytes: z
    .tuple([bytes, bytes])
    .refine(([min, max]) => min <= max, { error: "the smallest size must not exceed the largest" }),
});
export type SimulatorKnobs = z.infer<typeof simulatorKnobsSchema>;
export type RateKnob = Exclude<keyof SimulatorKnobs, "webhookDelayMs" | "jobDurationMs" | "bodyBytes">;

/** A save sends any subset; unknown names are refused so a typo cannot pass silently. */
export const simulatorKnobsPatchSchema = simulatorKnobsSchema.partial().strict();
export type SimulatorKnobsPatch = z.infer<typeof simulatorKnobsPatchSchema>;

export const RATE_KNOBS = [
  { name: "failureRate", label: "Jobs that fail", hint: "share of jobs that end failed" },
  { name: "retryableShare", label: "Failed jobs that are retryable", hint: "Tally resubmits these" },
  { name: "itemFailureRate", label: "Batch and crawl items that fail", hint: "inside a job that completes" },
  { name: "rateLimitRate", label: "API calls answered 429", hint: "with Retry-After" },
  { name: "serverErrorRate", label: "API calls answered 5xx", hint: "the client retries reads" },
  { name: "slowResponseRate", label: "Slow API answers", hint: "tests the client's timeouts" },
  { name: "webhookDropRate", label: "Webhooks never sent", hint: "reconciliation must catch these" },
  { name: "webhookDuplicateRate", label: "Webhooks sent twice", hint: "idempotency must absorb these" },
  { name: "webhookDelayRate", label: "Webhooks delayed", hint: "by a draw from the delay range below" },
  { name: "earlyWebhookRate", label: "Webhooks sent before the job settles", hint: "the worker must wait for it" },
  {
    name: "contentChangeRate",
    label: "Pages that change when read again",
    hint: "a collection's next run shows them changed, with a diff",
  },
  { name: "hostilePageRate", label: "Hostile pages", hint: "deep nesting, huge sibling runs: judged within a budget" },
] as const satisfies readonly { name: RateKnob; label: string; hint: string }[];
