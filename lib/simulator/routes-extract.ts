import "server-only";
import { z } from "zod";
import { extractRequestSchema, formatSchema, jobStatusSchema } from "@/lib/platform/contract";
import { pageContent } from "./content";
import { fetchOptions, servedContent, servedKind, tokensFor } from "./page-kinds";
import type { SimCore } from "./core";
import { flatError, pageOf, type Reply } from "./http";
import { summaryDoc, extractDoc, visibleView } from "./job-docs";
import { forcedOutcome, type SimJob } from "./jobs";
import { dateParam, notFound, pageParam, pageSizeParam, parseOr422, route, type Ctx, type Route } from "./router";

/** Filters of every job list (extract's, and mirrored by batch and crawl as the contract suggests). */
export const jobListQuery = z.object({
  page: pageParam,
  page_size: pageSizeParam(100, 100),
  status: jobStatusSchema.optional(),
  job_id: z.string().optional(),
  url: z.string().optional(),
  output: formatSchema.optional(),
  start_date: dateParam.optional(),
  end_date: dateParam.optional(),
});
type JobListQuery = z.output<typeof jobListQuery>;

export function listJobs(core: SimCore, kind: SimJob["kind"], ctx: Ctx): Reply {
  const q = parseOr422(jobListQuery, ctx.query, "query");
  if (!q.ok) return q.reply;
  const f: JobListQuery = q.data;
  const urlsOf = (j: SimJob) => (j.kind === "batch" ? j.urls : [j.request.url]);
  const all = core.jobs.list(kind);
  // No filter: page the cached list as it is (a full scan per page adds up over 1,000 pages).
  const unfiltered = [f.status, f.job_id, f.url, f.output, f.start_date, f.end_date].every((v) => v === undefined);
  const jobs = unfiltered
    ? all
    : all.filter(
        (j) =>
          (f.status === undefined || j.status === f.status) &&
          (f.job_id === undefined || j.id === f.job_id) &&
          (f.url === undefined || urlsOf(j).includes(f.url)) &&
          (f.output === undefined || j.formats.includes(f.output)) &&
          (f.start_date === undefined || j.createdAt >= f.start_date) &&
          (f.end_date === undefined || j.createdAt <= f.end_date),
      );
  const { slice, ...paging } = pageOf(jobs, f.page, f.page_size);
  return { status: 200, body: { jobs: slice.map(summaryDoc), ...paging } };
}

/** Payment and failure hooks shared by every submit endpoint. */
export const paymentRequired = (urls: readonly string[], ctx: Ctx): Reply | null =>
  urls.some((u) => u.includes("payment-required"))
    ? flatError(402, "INSUFFICIENT_BALANCE", "Insufficient request balance", ctx.correlationId)
    : null;

function extractSync(core: SimCore, req: z.output<typeof extractRequestSchema>, ctx: Ctx): Reply {
  const cfg = core.config();
  const rng = core.streams().jobs;
  const forced = forcedOutcome([req.url], false);
  const fail = forced ? forced.fail : rng.chance(cfg.failureRate);
  if (fail) {
    return flatError(
      422,
      "EXTRACTION_FAILED",
      `Could not extract ${req.url}`,
      ctx.correlationId,
      forced?.retryable ?? false,
    );
  }
  const formats = req.formats ?? ["html"];
  const opts = fetchOptions(req);
  const served = servedKind(cfg, req.url, opts);
  const real = () =>
    pageContent({
      seed: cfg.seed,
      url: req.url,
      formats,
      extractLinks: req.extract_links === true,
      hostileShare: cfg.hostileShare,
      bodyBytes: cfg.bodyBytes,
    });
  const content = servedContent(cfg.seed, req.url, served, real, formats);
  return {
    status: 200,
    body: {
      data: content,
      metadata: {
        url: req.url,
        render_js: req.render_js ?? false,
        http_status: 200,
        duration_ms: rng.int(150, 4000),
        retry_count: 0,
        formats,
        processing_mode: "sync",
        proxy: { country: req.proxy?.country ?? null, type: req.proxy?.type ?? "residential" },
        headers: req.headers ?? {},
        wait_config: req.wait_config ?? null,
      },
      tokens_charged: tokensFor(cfg, opts),
    },
  };
}

export function extractRoutes(core: SimCore): Route[] {
  return [
    route("POST", "/v1/extract", (ctx) => {
      const parsed = parseOr422(extractRequestSchema, ctx.body, "body");
      if (!parsed.ok) return parsed.reply;
      const req = parsed.data;
      const payment = paymentRequired([req.url], ctx);
      if (payment) return payment;
      if ((req.processing_mode ?? "sync") === "sync") return extractSync(core, req, ctx);
      const job = core.jobs.create({ kind: "extract", request: req });
      return {
        status: 202,
        body: { job_id: job.id, status: job.status, status_url: `/v1/extract/${job.id}`, estimated_tokens: 1 },
      };
    }),
    route("GET", "/v1/extract/jobs", (ctx) => listJobs(core, "extract", ctx)),
    route("GET", "/v1/extract/{job_id}", (ctx) => {
      const job = core.jobs.get(ctx.params.job_id);
      if (!job || job.kind !== "extract") return notFound(ctx, "Job");
      return { status: 200, body: extractDoc(job, visibleView(job)) };
    }),
  ];
}
