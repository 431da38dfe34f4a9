import "server-only";
import { z } from "zod";
import { defaultHmacScheme } from "@/lib/signing";

export type SimMode = "test" | "demo" | "strict";

const rate = z.number().min(0).max(1);
const ms = z.number().int().min(0).max(3_600_000);
const msRange = z.tuple([ms, ms]).refine(([min, max]) => min <= max, "expected [min, max] with min <= max");

const schemeSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("hmac"),
    header: z.string().regex(/^[A-Za-z0-9-]+$/, "expected an HTTP header name"),
    algorithm: z.enum(["sha256", "sha512"]),
    encoding: z.enum(["hex", "base64"]),
    prefix: z.string().max(32).optional(),
  }),
  z.object({ kind: z.literal("standard"), toleranceSeconds: z.number().int().min(1) }),
]);

const shape = {
  seed: z.number().int(),
  /** Time from submission to a terminal state, drawn per job; a fifth of it is spent queued. */
  jobDurationMs: msRange,
  failureRate: rate,
  /** Share of failed jobs whose error says `retryable: true`. */
  retryableShare: rate,
  /** Share of batch/crawl items that fail inside a job that completes. */
  itemFailureRate: rate,
  /** Share of pages with hostile HTML besides every URL containing "hostile". */
  hostileShare: rate,
  /** Share of URLs whose content differs from the last time the simulator served that URL (collections' changes). */
  contentChangeRate: rate,
  /** Content knobs (issue 39, lib/simulator/page-kinds.ts): share of hosts whose plain fetch answers a block page (200). */
  blockPageRate: rate,
  /** Of the blocking hosts, the share that `proxy.type: residential` gets through. */
  residentialUnblockShare: rate,
  /** Share of URLs that need `render_js` (else an empty JavaScript shell). */
  emptyShellRate: rate,
  /** Share of URLs answering a "not found" page with status 200. */
  softNotFoundRate: rate,
  /** Share of URLs cut short unless `wait_config` is given. */
  truncatedRate: rate,
  /**
   * Share of URLs (sticky per URL) answering a page built to be costly to judge (issue 47): deep nesting,
   * a huge run of siblings, hundreds of thousands of elements or attributes, or a size near the 3 MB
   * input limit. /_sim/content says which kind a URL gets.
   */
  hostilePageRate: rate,
  /** Tokens a completed page costs, without and with rendering (the price table: 1 and 1, no surcharge). */
  pageTokens: z.number().int().min(0).max(100),
  renderTokens: z.number().int().min(0).max(100),
  /** [min, max] bytes of a page's markdown (its html about three times that); [0, 0] keeps pages as generated (under 1 KB). */
  bodyBytes: z
    .tuple([z.number().int().min(0).max(16_000_000), z.number().int().min(0).max(16_000_000)])
    .refine(([min, max]) => min <= max, "expected [min, max] with min <= max"),
  rateLimitRate: rate,
  /** Retry-After form on 429: alternate between delay-seconds and HTTP-date, one of them, or none. */
  rateLimitForm: z.enum(["alternate", "seconds", "http-date", "none"]),
  retryAfterSeconds: z.number().int().min(0).max(3600),
  serverErrorRate: rate,
  /** The status those calls answer (an outage of one kind: 503 for a maintenance window); null: 500, 502 or 503 at random. */
  serverErrorStatus: z.number().int().min(500).max(599).nullable(),
  /** A POST takes effect but answers 502: the case that makes blind POST retries dangerous. */
  serverErrorAfterWriteRate: rate,
  slowResponseRate: rate,
  slowResponseMs: ms,
  webhookDropRate: rate,
  webhookDuplicateRate: rate,
  /** Share of deliveries held back by a draw from `webhookDelayMs` (uniform draws reorder them). */
  webhookDelayRate: rate,
  webhookDelayMs: msRange,
  /** Share of settled jobs whose webhook goes out while GET still answers `processing`. */
  earlyWebhookRate: rate,
  earlyWebhookLagMs: ms,
  /** Delay before each attempt: entry 0 is the first attempt, then retries; then `abandoned`. */
  deliveryRetryScheduleMs: z.array(ms).min(1).max(20),
  deliveryTimeoutMs: z.number().int().min(1).max(120_000),
  /** false: one delivery_id per event, kept across retries (Standard Webhooks); true: new id per attempt. */
  deliveryIdPerAttempt: z.boolean(),
  signatureScheme: schemeSchema,
  maxWebhooks: z.number().int().min(1).max(1000),
  /** Oldest settled jobs beyond this are forgotten (a long demo must not grow without bound). */
  retainJobs: z.number().int().min(10).max(1_000_000),
  /** Per webhook, oldest delivery log records beyond this are dropped. */
  retainDeliveries: z.number().int().min(10).max(1_000_000),
};

export const simConfigSchema = z.object(shape);
export type SimConfig = z.infer<typeof simConfigSchema>;

/** Body of POST /_sim/config: any subset; unknown keys are an error so typos do not pass silently. */
export const simConfigPatchSchema = z.strictObject(shape).partial();
export type SimConfigPatch = z.input<typeof simConfigPatchSchema>;

/** Defaults for test and strict modes: fast jobs, no failures, no faults until a test asks. */
export const baseConfig: SimConfig = {
  seed: 1,
  jobDurationMs: [200, 1000],
  failureRate: 0,
  retryableShare: 0.5,
  itemFailureRate: 0,
  hostileShare: 0.05,
  contentChangeRate: 0,
  blockPageRate: 0,
  residentialUnblockShare: 0,
  emptyShellRate: 0,
  softNotFoundRate: 0,
  truncatedRate: 0,
  hostilePageRate: 0,
  pageTokens: 1,
  renderTokens: 1,
  bodyBytes: [0, 0],
  rateLimitRate: 0,
  rateLimitForm: "alternate",
  retryAfterSeconds: 1,
  serverErrorRate: 0,
  serverErrorStatus: null,
  serverErrorAfterWriteRate: 0,
  slowResponseRate: 0,
  slowResponseMs: 2000,
  webhookDropRate: 0,
  webhookDuplicateRate: 0,
  webhookDelayRate: 1,
  webhookDelayMs: [0, 0],
  earlyWebhookRate: 0,
  earlyWebhookLagMs: 1000,
  deliveryRetryScheduleMs: [0, 500, 2000, 5000, 10000],
  deliveryTimeoutMs: 5000,
  deliveryIdPerAttempt: false,
  signatureScheme: defaultHmacScheme,
  maxWebhooks: 10,
  retainJobs: 5000,
  retainDeliveries: 5000,
};

/** Demo mode: a living dashboard, so jobs take a few seconds and every fault shows up now and then. */
export const demoOverrides: Partial<SimConfig> = {
  jobDurationMs: [2000, 15000],
  failureRate: 0.1,
  itemFailureRate: 0.05,
  contentChangeRate: 0.02,
  rateLimitRate: 0.02,
  serverErrorRate: 0.02,
  slowResponseRate: 0.02,
  slowResponseMs: 1500,
  webhookDropRate: 0.05,
  webhookDuplicateRate: 0.05,
  webhookDelayRate: 0.2,
  webhookDelayMs: [500, 8000],
  earlyWebhookRate: 0.05,
  earlyWebhookLagMs: 3000,
  // Pages of realistic size (issue 40): 20–200 KB of markdown (html about three times that), so the
  // demo's results go through the body store as a real deployment's do.
  bodyBytes: [20_000, 200_000],
};

export function initialConfig(
  mode: SimMode,
  seed: number | undefined,
  overrides: SimConfigPatch | undefined,
): SimConfig {
  const preset: SimConfig = { ...baseConfig, ...(mode === "demo" ? demoOverrides : {}) };
  const patch = simConfigPatchSchema.parse({ ...(overrides ?? {}), ...(seed === undefined ? {} : { seed }) });
  return { ...preset, ...patch };
}

/** Validates a patch; returns the merged config or a readable reason. */
export function mergeConfig(
  current: SimConfig,
  patch: unknown,
): { ok: true; config: SimConfig } | { ok: false; reason: string } {
  const parsed = simConfigPatchSchema.safeParse(patch);
  if (!parsed.success) {
    const reason = parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; ");
    return { ok: false, reason };
  }
  return { ok: true, config: { ...current, ...parsed.data } };
}
