import "server-only";
import { z } from "zod";
import {
  formatSchema,
  httpUrl,
  jobErrorSchema,
  jobStatusSchema,
  listEnvelope,
  pageDataSchema,
  proxySchema,
  timestamp,
  waitConfigSchema,
} from "./schemas";

// ---- requests ----

export const batchRequestSchema = z.object({
  urls: z.array(z.string()).min(1).max(1000),
  ignore_invalid_urls: z.boolean().optional(),
  formats: z.array(formatSchema).min(1).optional(),
  render_js: z.boolean().optional(),
  proxy: proxySchema.optional(),
  headers: z.record(z.string(), z.string()).nullish(),
  wait_config: waitConfigSchema.nullish(),
});
export type BatchRequest = z.input<typeof batchRequestSchema>;

export const crawlRequestSchema = z.object({
  url: httpUrl,
  depth: z.number().int().min(1).max(10).optional(),
  limit: z.number().int().min(1).max(10_000).optional(),
  formats: z.array(formatSchema).min(1).optional(),
  render_js: z.boolean().optional(),
  same_domain_only: z.boolean().optional(),
  include_subdomains: z.boolean().optional(),
  proxy: proxySchema.optional(),
  wait_config: waitConfigSchema.nullish(),
});
export type CrawlRequest = z.input<typeof crawlRequestSchema>;

// ---- responses ----

const itemMetadataSchema = z.looseObject({
  http_status: z.number().int().nullish(),
  duration_ms: z.number().nullish(),
  retry_count: z.number().int().nullish(),
  tokens_charged: z.number().int().nullish(),
});

const tokenSummarySchema = z.looseObject({
  tokens_charged_total: z.number().int(),
  tokens_reserved: z.number().int(),
});

// The contract shows no pagination fields on status documents; the simulator adds them and the
// client uses them when present, else stops at a short page.
const resultsPaging = {
  page: z.number().int().optional(),
  page_size: z.number().int().optional(),
  page_count: z.number().int().optional(),
};

export const batchAcceptedSchema = z.looseObject({
  job_id: z.string().min(1),
  status: jobStatusSchema,
  status_url: z.string(),
  accepted_urls: z.number().int(),
  invalid_urls: z.array(z.string()),
});
export type BatchAccepted = z.infer<typeof batchAcceptedSchema>;

export const batchResultItemSchema = z.looseObject({
  input_index: z.number().int().nullish(),
  url: z.string(),
  status: z.string(),
  error_code: z.string().nullish(),
  error_message: z.string().nullish(),
  data: pageDataSchema.nullish(),
  metadata: itemMetadataSchema.nullish(),
});
export type BatchResultItem = z.infer<typeof batchResultItemSchema>;

export const batchStatusSchema = z.looseObject({
  job_id: z.string().min(1),
  status: jobStatusSchema,
  batch_config: z.looseObject({}).nullish(),
  token_summary: tokenSummarySchema.nullish(),
  total_urls: z.number().int(),
  completed_urls: z.number().int(),
  failed_urls: z.number().int(),
  cancelled_urls: z.number().int().nullish(),
  pending_urls: z.number().int().nullish(),
  invalid_urls: z.array(z.string()).nullish(),
  created_at: timestamp,
  completed_at: timestamp.nullish(),
  error: jobErrorSchema.nullish(),
  results: z.array(batchResultItemSchema).default([]),
  ...resultsPaging,
});
export type BatchStatus = z.infer<typeof batchStatusSchema>;

export const batchJobSummarySchema = z.looseObject({
  job_id: z.string().min(1),
  status: jobStatusSchema,
  accepted_urls: z.number().int(),
  completed_urls: z.number().int(),
  failed_urls: z.number().int(),
  config: z.looseObject({}).nullish(),
  created_at: timestamp,
  completed_at: timestamp.nullish(),
});
export type BatchJobSummary = z.infer<typeof batchJobSummarySchema>;
export const batchJobListSchema = listEnvelope("jobs", batchJobSummarySchema);

export const crawlAcceptedSchema = z.looseObject({
  job_id: z.string().min(1),
  url: z.string(),
  status: jobStatusSchema,
  status_url: z.string(),
  estimated_pages: z.number().int().nullish(),
});
export type CrawlAccepted = z.infer<typeof crawlAcceptedSchema>;

export const crawlResultItemSchema = z.looseObject({
  url: z.string(),
  parent_url: z.string().nullable(),
  depth: z.number().int(),
  status: z.string(),
  error_code: z.string().nullish(),
  error_message: z.string().nullish(),
  links: z.array(z.string()).nullish(),
  data: pageDataSchema.nullish(),
  metadata: itemMetadataSchema.nullish(),
});
export type CrawlResultItem = z.infer<typeof crawlResultItemSchema>;

export const crawlStatusSchema = z.looseObject({
  job_id: z.string().min(1),
  url: z.string(),
  status: jobStatusSchema,
  crawl_config: z.looseObject({}).nullish(),
  token_summary: tokenSummarySchema.nullish(),
  total_pages: z.number().int(),
  completed_pages: z.number().int(),
  failed_pages: z.number().int(),
  cancelled_pages: z.number().int().nullish(),
  created_at: timestamp,
  completed_at: timestamp.nullish(),
  error: jobErrorSchema.nullish(),
  results: z.array(crawlResultItemSchema).default([]),
  ...resultsPaging,
});
export type CrawlStatus = z.infer<typeof crawlStatusSchema>;

export const crawlJobSummarySchema = z.looseObject({
  job_id: z.string().min(1),
  url: z.string(),
  status: jobStatusSchema,
  total_pages: z.number().int(),
  completed_pages: z.number().int(),
  failed_pages: z.number().int(),
  config: z.looseObject({}).nullish(),
  created_at: timestamp,
  completed_at: timestamp.nullish(),
});
export type CrawlJobSummary = z.infer<typeof crawlJobSummarySchema>;
export const crawlJobListSchema = listEnvelope("jobs", crawlJobSummarySchema);

export const cancelAcceptedSchema = z.looseObject({
  job_id: z.string().min(1),
  status: jobStatusSchema,
  status_url: z.string().nullish(),
  in_flight_urls: z.number().int().nullish(),
  in_flight_pages: z.number().int().nullish(),
});
export type CancelAccepted = z.infer<typeof cancelAcceptedSchema>;
