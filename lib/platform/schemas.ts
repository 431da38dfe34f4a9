import "server-only";
import { z } from "zod";

// Wire documents keep the platform's snake_case names: they are parsed, not translated, so a field
// can be looked up in the contract by the name seen here. Response objects are loose (the platform
// may add fields at any time); only what Tally relies on is required.

export const timestamp = z.iso.datetime({ offset: true });
export const httpUrl = z.url({ protocol: /^https?$/ });

export const jobStatusSchema = z.enum(["queued", "processing", "completed", "failed", "cancelled"]);
export type JobStatus = z.infer<typeof jobStatusSchema>;
export const terminalStatuses: readonly JobStatus[] = ["completed", "failed", "cancelled"];
export const isTerminal = (s: JobStatus): boolean => terminalStatuses.includes(s);

export const formatSchema = z.enum(["markdown", "html"]);
export type OutputFormat = z.infer<typeof formatSchema>;

// ---- request bodies (also used by the simulator to answer 422 like the platform) ----

export const proxySchema = z.object({
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "expected an ISO 3166-1 alpha-2 code")
    .optional(),
  type: z.enum(["residential", "datacenter", "mix"]).optional(),
});

export const waitConfigSchema = z.object({
  wait_until: z.enum(["commit", "domcontentloaded", "load", "networkidle"]).optional(),
  wait_for: z.string().optional(),
  wait_timeout: z.number().int().min(0).max(120_000).optional(),
});

export const extractRequestSchema = z.object({
  url: httpUrl,
  formats: z.array(formatSchema).min(1).optional(),
  render_js: z.boolean().optional(),
  processing_mode: z.enum(["sync", "async"]).optional(),
  proxy: proxySchema.optional(),
  headers: z.record(z.string(), z.string()).nullish(),
  wait_config: waitConfigSchema.nullish(),
  extract_links: z.boolean().optional(),
});
export type ExtractRequest = z.input<typeof extractRequestSchema>;

// ---- shared response pieces ----

/** The job error object (`error` inside a failed job). */
export const jobErrorSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  details: z.record(z.string(), z.unknown()).nullish(),
});
export type JobError = z.infer<typeof jobErrorSchema>;

export const pageDataSchema = z.looseObject({
  markdown: z.string().nullish(),
  html: z.string().nullish(),
  links: z.array(z.string()).nullish(),
});

export const extractMetadataSchema = z.looseObject({
  url: z.string(),
  render_js: z.boolean().optional(),
  http_status: z.number().int().optional(),
  duration_ms: z.number().optional(),
  retry_count: z.number().int().optional(),
  formats: z.array(z.string()).optional(),
  processing_mode: z.string().optional(),
});

/** `{page, page_size, page_count}` plus the list under `key` (`jobs` or `items`, per the contract). */
export function listEnvelope<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.looseObject({
    page: z.number().int(),
    page_size: z.number().int(),
    page_count: z.number().int(),
    ...({ [key]: z.array(item) } as { [P in K]: z.ZodArray<T> }),
  });
}

// ---- extract ----

export const healthSchema = z.looseObject({ status: z.string() });
export type Health = z.infer<typeof healthSchema>;

export const extractResultSchema = z.looseObject({
  data: pageDataSchema,
  metadata: extractMetadataSchema,
  tokens_charged: z.number().int(),
});
export type ExtractResult = z.infer<typeof extractResultSchema>;

export const asyncAcceptedSchema = z.looseObject({
  job_id: z.string().min(1),
  status: jobStatusSchema,
  status_url: z.string(),
  estimated_tokens: z.number().int().nullish(),
});
export type AsyncAccepted = z.infer<typeof asyncAcceptedSchema>;

export const extractJobSchema = z.looseObject({
  job_id: z.string().min(1),
  status: jobStatusSchema,
  created_at: timestamp,
  completed_at: timestamp.nullish(),
  data: pageDataSchema.nullish(),
  metadata: extractMetadataSchema.nullish(),
  error: jobErrorSchema.nullish(),
  tokens_charged: z.number().int().nullish(),
});
export type ExtractJob = z.infer<typeof extractJobSchema>;

export const extractJobSummarySchema = z.looseObject({
  job_id: z.string().min(1),
  status: jobStatusSchema,
  url: z.string(),
  created_at: timestamp,
  execution_time: z.number().nullish(),
  output: z.array(z.string()).nullish(),
});
export type ExtractJobSummary = z.infer<typeof extractJobSummarySchema>;
export const extractJobListSchema = listEnvelope("jobs", extractJobSummarySchema);

/** Filters shared by every job list; `output` only applies to extraction jobs. */
export type JobListFilters = {
  job_id?: string;
  url?: string;
  status?: JobStatus;
  output?: OutputFormat;
  start_date?: Date | string;
  end_date?: Date | string;
  page_size?: number;
};
