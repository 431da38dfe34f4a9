import "server-only";
import {
  batchJobListSchema,
  batchAcceptedSchema,
  batchStatusSchema,
  cancelAcceptedSchema,
  crawlAcceptedSchema,
  crawlJobListSchema,
  crawlStatusSchema,
  type BatchRequest,
  type BatchResultItem,
  type BatchStatus,
  type CrawlRequest,
  type CrawlResultItem,
  type CrawlStatus,
} from "./batch-crawl-schemas";
import { paginate, type Page } from "./paginate";
import { createTransport, type CallOptions, type ClientOptions, type QueryValue } from "./request";
import {
  asyncAcceptedSchema,
  extractJobListSchema,
  extractJobSchema,
  extractResultSchema,
  healthSchema,
  type ExtractJob,
  type ExtractRequest,
  type JobError,
  type JobListFilters,
  type JobStatus,
} from "./schemas";
import { createWebhookApi } from "./webhook-api";

import type { JobKind } from "./events";

export type { JobKind };

/** The same view of any job kind, for code that only cares whether and how it settled. */
export type NormalizedJob = {
  jobId: string;
  kind: JobKind;
  status: JobStatus;
  error: JobError | null;
  createdAt: string;
  completedAt: string | null;
  raw: ExtractJob | BatchStatus | CrawlStatus;
};

export type ResultPageOptions = { page?: number; pageSize?: number };

const id = (value: string) => encodeURIComponent(value);

function filterQuery(f: JobListFilters, page: number): Record<string, QueryValue> {
  return { ...f, page, page_size: f.page_size ?? 100 };
}

export function createPlatformClient(opts: ClientOptions) {
  const { request, limiter } = createTransport(opts);

  /** Iterates a status document's result pages until page_count (or a short page). */
  async function* resultPages<T>(
    load: (page: number, pageSize: number) => Promise<{ results: T[]; page_count?: number }>,
    pageSize: number,
  ): AsyncGenerator<Page<T>, void, undefined> {
    yield* paginate(async (page) => {
      const doc = await load(page, pageSize);
      const pageCount = doc.page_count ?? (doc.results.length < pageSize ? page : page + 1);
      return { items: doc.results, pageCount };
    });
  }

  const jobs = {
    health: (call?: CallOptions) =>
      request({ method: "GET", path: "/health", endpoint: "GET /health", schema: healthSchema }, call),

    /** Synchronous extraction (200 with the content). */
    extract: (req: ExtractRequest, call?: CallOptions) =>
      request(
        {
          method: "POST",
          path: "/v1/extract",
          endpoint: "POST /v1/extract",
          body: { ...req, processing_mode: "sync" },
          schema: extractResultSchema,
        },
        call,
      ),

    /** Asynchronous extraction (202 with a job id). */
    submitExtract: (req: ExtractRequest, call?: CallOptions) =>
      request(
        {
          method: "POST",
          path: "/v1/extract",
          endpoint: "POST /v1/extract",
          body: { ...req, processing_mode: "async" },
          schema: asyncAcceptedSchema,
        },
        call,
      ),

    getExtractJob: (jobId: string, call?: CallOptions) =>
      request(
        {
          method: "GET",
          path: `/v1/extract/${id(jobId)}`,
          endpoint: "GET /v1/extract/{job_id}",
          schema: extractJobSchema,
        },
        call,
      ),

    listExtractJobs: (filters: JobListFilters = {}, call?: CallOptions) =>
      paginate(async (page) => {
        const doc = await request(
          {
            method: "GET",
            path: "/v1/extract/jobs",
            endpoint: "GET /v1/extract/jobs",
            query: filterQuery(filters, page),
            schema: extractJobListSchema,
          },
          call,
        );
        return { items: doc.jobs, pageCount: doc.page_count };
      }),

    submitBatch: (req: BatchRequest, call?: CallOptions) =>
      request(
        { method: "POST", path: "/v1/batch", endpoint: "POST /v1/batch", body: req, schema: batchAcceptedSchema },
        call,
      ),

    getBatch: (jobId: string, page: ResultPageOptions = {}, call?: CallOptions) =>
      request(
        {
          method: "GET",
          path: `/v1/batch/${id(jobId)}`,
          endpoint: "GET /v1/batch/{job_id}",
          query: { page: page.page ?? 1, page_size: page.pageSize ?? 10 },
          schema: batchStatusSchema,
        },
        call,
      ),

    batchResults: (
      jobId: string,
      pageSize = 50,
      call?: CallOptions,
    ): AsyncGenerator<Page<BatchResultItem>, void, undefined> =>
      resultPages((page, size) => jobs.getBatch(jobId, { page, pageSize: size }, call), pageSize),

    listBatchJobs: (filters: Omit<JobListFilters, "output"> = {}, call?: CallOptions) =>
      paginate(async (page) => {
        const doc = await request(
          {
            method: "GET",
            path: "/v1/batch/jobs",
            endpoint: "GET /v1/batch/jobs",
            query: filterQuery(filters, page),
            schema: batchJobListSchema,
          },
          call,
        );
        return { items: doc.jobs, pageCount: doc.page_count };
      }),

    cancelBatch: (jobId: string, call?: CallOptions) =>
      request(
        {
          method: "DELETE",
          path: `/v1/batch/${id(jobId)}`,
          endpoint: "DELETE /v1/batch/{job_id}",
          schema: cancelAcceptedSchema,
        },
        call,
      ),

    submitCrawl: (req: CrawlRequest, call?: CallOptions) =>
      request(
        { method: "POST", path: "/v1/crawl", endpoint: "POST /v1/crawl", body: req, schema: crawlAcceptedSchema },
        call,
      ),

    getCrawl: (jobId: string, page: ResultPageOptions = {}, call?: CallOptions) =>
      request(
        {
          method: "GET",
          path: `/v1/crawl/${id(jobId)}`,
          endpoint: "GET /v1/crawl/{job_id}",
          query: { page: page.page ?? 1, page_size: page.pageSize ?? 10 },
          schema: crawlStatusSchema,
        },
        call,
      ),

    crawlResults: (
      jobId: string,
      pageSize = 50,
      call?: CallOptions,
    ): AsyncGenerator<Page<CrawlResultItem>, void, undefined> =>
      resultPages((page, size) => jobs.getCrawl(jobId, { page, pageSize: size }, call), pageSize),

    listCrawlJobs: (filters: Omit<JobListFilters, "output"> = {}, call?: CallOptions) =>
      paginate(async (page) => {
        const doc = await request(
          {
            method: "GET",
            path: "/v1/crawl/jobs",
            endpoint: "GET /v1/crawl/jobs",
            query: filterQuery(filters, page),
            schema: crawlJobListSchema,
          },
          call,
        );
        return { items: doc.jobs, pageCount: doc.page_count };
      }),

    cancelCrawl: (jobId: string, call?: CallOptions) =>
      request(
        {
          method: "DELETE",
          path: `/v1/crawl/${id(jobId)}`,
          endpoint: "DELETE /v1/crawl/{job_id}",
          schema: cancelAcceptedSchema,
        },
        call,
      ),

    /** Any kind, normalised; batch/crawl fetch one result item only since callers want the state. */
    async getJob(kind: JobKind, jobId: string, call?: CallOptions): Promise<NormalizedJob> {
      const raw =
        kind === "extract"
          ? await jobs.getExtractJob(jobId, call)
          : kind === "batch"
            ? await jobs.getBatch(jobId, { pageSize: 1 }, call)
            : await jobs.getCrawl(jobId, { pageSize: 1 }, call);
      return {
        jobId: raw.job_id,
        kind,
        status: raw.status,
        error: raw.error ?? null,
        createdAt: raw.created_at,
        completedAt: raw.completed_at ?? null,
        raw,
      };
    },
  };

  return {
    ...jobs,
    ...createWebhookApi(request),
    /** Milliseconds left on the client-wide 429 pause (0 when not paused); for dashboards. */
    rateLimitPauseMs: () => limiter.pausedForMs(),
  };
}

export type PlatformClient = ReturnType<typeof createPlatformClient>;
export type { ClientOptions, CallOptions };
