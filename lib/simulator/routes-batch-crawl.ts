import "server-only";
import { z } from "zod";
import { batchRequestSchema, crawlRequestSchema, httpUrl } from "@/lib/platform/contract";
import type { SimCore } from "./core";
import { flatError, validationReply, type Reply } from "./http";
import { batchDoc, crawlDoc, visibleView } from "./job-docs";
import { listJobs, paymentRequired } from "./routes-extract";
import { checkUuid, notFound, pageParam, pageSizeParam, parseOr422, route, type Ctx, type Route } from "./router";

const statusQuery = z.object({ page: pageParam, page_size: pageSizeParam(50, 10) });

function cancel(core: SimCore, kind: "batch" | "crawl", ctx: Ctx): Reply {
  const id = ctx.params.job_id;
  const existing = core.jobs.get(id);
  if (!existing || existing.kind !== kind) return notFound(ctx, "Job");
  const out = core.jobs.cancel(id);
  if (out.result === "not_found") return notFound(ctx, "Job");
  if (out.result === "finished") {
    return flatError(
      409,
      "INVALID_STATE",
      `Job ${id} is already ${existing.final?.status ?? existing.status}`,
      ctx.correlationId,
    );
  }
  const inFlight = kind === "batch" ? { in_flight_urls: 0 } : { in_flight_pages: 0 };
  return { status: 202, body: { job_id: id, status: "cancelled", status_url: `/v1/${kind}/${id}`, ...inFlight } };
}

export function batchCrawlRoutes(core: SimCore): Route[] {
  return [
    route("POST", "/v1/batch", (ctx) => {
      const parsed = parseOr422(batchRequestSchema, ctx.body, "body");
      if (!parsed.ok) return parsed.reply;
      const req = parsed.data;
      const invalid = req.urls.map((u, i) => ({ u, i })).filter(({ u }) => !httpUrl.safeParse(u).success);
      if (req.ignore_invalid_urls === false && invalid.length > 0) {
        return validationReply(
          invalid.map(({ i }) => ({
            loc: ["body", "urls", i],
            msg: "Input should be a valid URL",
            type: "url_parsing",
          })),
        );
      }
      const urls = req.urls.filter((u) => httpUrl.safeParse(u).success);
      if (urls.length === 0)
        return validationReply([{ loc: ["body", "urls"], msg: "No valid URLs in the batch", type: "value_error" }]);
      const payment = paymentRequired(urls, ctx);
      if (payment) return payment;
      const job = core.jobs.create({ kind: "batch", request: req, urls, invalidUrls: invalid.map(({ u }) => u) });
      return {
        status: 202,
        body: {
          job_id: job.id,
          status: job.status,
          status_url: `/v1/batch/${job.id}`,
          accepted_urls: urls.length,
          invalid_urls: invalid.map(({ u }) => u),
        },
      };
    }),
    route("GET", "/v1/batch/jobs", (ctx) => listJobs(core, "batch", ctx)),
    route("GET", "/v1/batch/{job_id}", (ctx) => {
      const q = parseOr422(statusQuery, ctx.query, "query");
      if (!q.ok) return q.reply;
      const job = core.jobs.get(ctx.params.job_id);
      if (!job || job.kind !== "batch") return notFound(ctx, "Job");
      return { status: 200, body: batchDoc(job, visibleView(job), { page: q.data.page, pageSize: q.data.page_size }) };
    }),
    route("DELETE", "/v1/batch/{job_id}", (ctx) => cancel(core, "batch", ctx)),

    route("POST", "/v1/crawl", (ctx) => {
      const parsed = parseOr422(crawlRequestSchema, ctx.body, "body");
      if (!parsed.ok) return parsed.reply;
      const req = parsed.data;
      const payment = paymentRequired([req.url], ctx);
      if (payment) return payment;
      const job = core.jobs.create({ kind: "crawl", request: req });
      return {
        status: 202,
        body: {
          job_id: job.id,
          url: req.url,
          status: job.status,
          status_url: `/v1/crawl/${job.id}`,
          estimated_pages: Math.min(req.limit ?? 10, 10),
        },
      };
    }),
    route("GET", "/v1/crawl/jobs", (ctx) => listJobs(core, "crawl", ctx)),
    route("GET", "/v1/crawl/{job_id}", (ctx) => {
      const bad = checkUuid(ctx, "job_id");
      if (bad) return bad;
      const q = parseOr422(statusQuery, ctx.query, "query");
      if (!q.ok) return q.reply;
      const job = core.jobs.get(ctx.params.job_id);
      if (!job || job.kind !== "crawl") return notFound(ctx, "Job");
      return { status: 200, body: crawlDoc(job, visibleView(job), { page: q.data.page, pageSize: q.data.page_size }) };
    }),
    route("DELETE", "/v1/crawl/{job_id}", (ctx) => checkUuid(ctx, "job_id") ?? cancel(core, "crawl", ctx)),
  ];
}
