import "server-only";
import { iso, pageOf } from "./http";
import type { ItemResult } from "./items";
import type { SimJob, View } from "./jobs";

// Documents exactly as the contract shows them (snake_case, flat). `view` is what the reader sees:
// GET uses the visible state, a webhook uses the settled truth (they differ for early webhooks).

export const visibleView = (job: SimJob): View => ({ status: job.status, completedAt: job.completedAt });
export const finalView = (job: SimJob): View => job.final ?? visibleView(job);

type Paging = { page: number; pageSize: number } | null;

const settled = (view: View) => view.status === "completed" || view.status === "failed" || view.status === "cancelled";

function itemMetadata(item: ItemResult) {
  return {
    http_status: item.httpStatus,
    duration_ms: item.durationMs,
    retry_count: 0,
    tokens_charged: item.tokensCharged,
  };
}

export function extractDoc(job: Extract<SimJob, { kind: "extract" }>, view: View) {
  const item = settled(view) ? job.items[0] : undefined;
  const done = view.status === "completed" && item?.content;
  return {
    job_id: job.id,
    status: view.status,
    created_at: iso(job.createdAt),
    completed_at: view.completedAt === null ? null : iso(view.completedAt),
    data: done
      ? {
          markdown: item.content?.markdown ?? null,
          html: item.content?.html ?? null,
          links: item.content?.links ?? null,
        }
      : null,
    metadata: done
      ? {
          url: job.request.url,
          render_js: job.request.render_js ?? false,
          http_status: item.httpStatus,
          duration_ms: item.durationMs,
          retry_count: 0,
          formats: job.formats,
          processing_mode: "async",
          proxy: { country: job.request.proxy?.country ?? null, type: job.request.proxy?.type ?? "residential" },
          headers: job.request.headers ?? {},
          wait_config: job.request.wait_config ?? null,
        }
      : null,
    error: view.status === "failed" ? job.error : null,
    tokens_charged: view.status === "completed" ? (item?.tokensCharged ?? 1) : settled(view) ? 0 : null,
  };
}

function counts(job: SimJob, view: View) {
  const items = settled(view) ? job.items : [];
  const by = (s: ItemResult["status"]) => items.filter((i) => i.status === s).length;
  const completed = by("completed");
  const charged = items.reduce((sum, i) => sum + i.tokensCharged, 0);
  return { completed, failed: by("failed"), cancelled: by("cancelled"), charged };
}

function resultsPage<T>(job: SimJob, view: View, paging: Paging, map: (i: ItemResult) => T) {
  if (paging === null) return {};
  const items = settled(view) ? job.items : [];
  const { slice, page, page_size, page_count } = pageOf(items, paging.page, paging.pageSize);
  return { results: slice.map(map), page, page_size, page_count };
}

const itemData = (i: ItemResult) =>
  i.content ? { markdown: i.content.markdown, html: i.content.html, links: i.content.links } : null;

/** Status document; `paging: null` leaves out results (the webhook payload). */
export function batchDoc(job: Extract<SimJob, { kind: "batch" }>, view: View, paging: Paging) {
  const c = counts(job, view);
  const total = job.urls.length;
  return {
    job_id: job.id,
    status: view.status,
    batch_config: {
      render_js: job.request.render_js ?? false,
      formats: job.formats,
      proxy: { country: job.request.proxy?.country ?? null, type: job.request.proxy?.type ?? "residential" },
      headers: job.request.headers ?? null,
    },
    token_summary: { tokens_charged_total: c.charged, tokens_reserved: settled(view) ? 0 : total },
    total_urls: total,
    completed_urls: c.completed,
    failed_urls: c.failed,
    cancelled_urls: c.cancelled,
    pending_urls: settled(view) ? 0 : total,
    invalid_urls: job.invalidUrls,
    created_at: iso(job.createdAt),
    completed_at: view.completedAt === null ? null : iso(view.completedAt),
    error: view.status === "failed" ? job.error : null,
    ...resultsPage(job, view, paging, (i) => ({
      input_index: i.inputIndex,
      url: i.url,
      status: i.status,
      error_code: i.errorCode,
      error_message: i.errorMessage,
      data: itemData(i),
      metadata: itemMetadata(i),
    })),
  };
}

export function crawlDoc(job: Extract<SimJob, { kind: "crawl" }>, view: View, paging: Paging) {
  const c = counts(job, view);
  return {
    job_id: job.id,
    url: job.request.url,
    status: view.status,
    crawl_config: {
      render_js: job.request.render_js ?? false,
      formats: job.formats,
      same_domain_only: job.request.same_domain_only ?? true,
      include_subdomains: job.request.include_subdomains ?? false,
      proxy: { country: job.request.proxy?.country ?? null, type: job.request.proxy?.type ?? "residential" },
      wait_config: job.request.wait_config ?? null,
    },
    token_summary: { tokens_charged_total: c.charged, tokens_reserved: settled(view) ? 0 : (job.request.limit ?? 100) },
    total_pages: settled(view) ? job.items.length : view.status === "processing" ? 1 : 0,
    completed_pages: c.completed,
    failed_pages: c.failed,
    cancelled_pages: c.cancelled,
    created_at: iso(job.createdAt),
    completed_at: view.completedAt === null ? null : iso(view.completedAt),
    error: view.status === "failed" ? job.error : null,
    ...resultsPage(job, view, paging, (i) => ({
      url: i.url,
      parent_url: i.parentUrl,
      depth: i.depth,
      status: i.status,
      error_code: i.errorCode,
      error_message: i.errorMessage,
      links: i.links,
      data: i.content ? { markdown: i.content.markdown, html: i.content.html } : null,
      metadata: itemMetadata(i),
    })),
  };
}

/** The webhook `data`: the GET document for extractions, the status document without results otherwise. */
export function eventData(job: SimJob) {
  const view = finalView(job);
  if (job.kind === "extract") return extractDoc(job, view);
  return job.kind === "batch" ? batchDoc(job, view, null) : crawlDoc(job, view, null);
}

export function summaryDoc(job: SimJob) {
  const view = visibleView(job);
  const common = {
    job_id: job.id,
    status: view.status,
    created_at: iso(job.createdAt),
  };
  if (job.kind === "extract") {
    const item = settled(view) ? job.items[0] : undefined;
    return { ...common, url: job.request.url, execution_time: item ? item.durationMs : null, output: job.formats };
  }
  const c = counts(job, view);
  const completed_at = view.completedAt === null ? null : iso(view.completedAt);
  if (job.kind === "batch") {
    const { batch_config } = batchDoc(job, view, null);
    return {
      ...common,
      accepted_urls: job.urls.length,
      completed_urls: c.completed,
      failed_urls: c.failed,
      config: { ...batch_config, wait_config: job.request.wait_config ?? null },
      completed_at,
    };
  }
  const doc = crawlDoc(job, view, null);
  return {
    ...common,
    url: job.request.url,
    total_pages: doc.total_pages,
    completed_pages: c.completed,
    failed_pages: c.failed,
    config: doc.crawl_config,
    completed_at,
  };
}
