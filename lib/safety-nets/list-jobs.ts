import "server-only";
import type { CallOptions, JobKind, JobListFilters, JobStatus, PlatformClient } from "../platform";

// The platform's job lists, all three kinds in one shape, page by page (reconciliation and the
// polling sweep read them the same way).

export type Listed = {
  jobId: string;
  status: JobStatus;
  createdAt: string;
  completedAt: string | null;
  url: string | null;
  executionMs: number | null;
};
export type ListedPage = { page: number; pageCount: number; items: Listed[] };

export const KINDS: readonly JobKind[] = ["extract", "batch", "crawl"];

export async function* listJobs(
  client: PlatformClient,
  kind: JobKind,
  filters: JobListFilters,
  call?: CallOptions,
): AsyncGenerator<ListedPage> {
  const base = (j: { job_id: string; status: JobStatus; created_at: string; completed_at?: string | null }) => ({
    jobId: j.job_id,
    status: j.status,
    createdAt: j.created_at,
    completedAt: j.completed_at ?? null,
  });
  if (kind === "extract") {
    for await (const p of client.listExtractJobs(filters, call)) {
      // The contract's extract summary has no completed_at; use it when the platform sends one anyway.
      const completedAt = (j: Record<string, unknown>) => (typeof j.completed_at === "string" ? j.completed_at : null);
      yield {
        ...p,
        items: p.items.map((j) => ({
          ...base({ ...j, completed_at: completedAt(j) }),
          url: j.url,
          executionMs: j.execution_time ?? null,
        })),
      };
    }
  } else if (kind === "batch") {
    for await (const p of client.listBatchJobs(filters, call))
      yield { ...p, items: p.items.map((j) => ({ ...base(j), url: null, executionMs: null })) };
  } else {
    for await (const p of client.listCrawlJobs(filters, call))
      yield { ...p, items: p.items.map((j) => ({ ...base(j), url: j.url, executionMs: null })) };
  }
}

/** When the job settled: completed_at where the list has it, else created_at plus its run time (never in the future). */
export function settledAt(j: Listed, now: number): number {
  if (j.completedAt) return Date.parse(j.completedAt);
  return Math.min(now, Date.parse(j.createdAt) + (j.executionMs ?? 0));
}
