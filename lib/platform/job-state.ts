import "server-only";
import type { BatchStatus, CrawlStatus } from "./batch-crawl-schemas";
import type { JobKind, PlatformClient } from "./http-client";
import type { ExtractJob, JobError, JobStatus } from "./schemas";

/** Result page size for batch and crawl status documents (the contract's maximum). */
export const DEFAULT_RESULT_PAGE_SIZE = 50;

type Common = {
  jobId: string;
  status: JobStatus;
  error: JobError | null;
  createdAt: string;
  completedAt: string | null;
};

/** A job's current state, with the full document of its kind (the first result page for batch and crawl). */
export type PlatformState =
  | (Common & { kind: "extract"; doc: ExtractJob })
  | (Common & { kind: "batch"; doc: BatchStatus })
  | (Common & { kind: "crawl"; doc: CrawlStatus });

const common = (doc: ExtractJob | BatchStatus | CrawlStatus): Common => ({
  jobId: doc.job_id,
  status: doc.status,
  error: doc.error ?? null,
  createdAt: doc.created_at,
  completedAt: doc.completed_at ?? null,
});

// Kind-specific getters instead of the normalised getJob: the completed document is needed anyway
// (extract content, first result page), so one call serves both the status check and the storing.
export async function fetchState(
  client: PlatformClient,
  kind: JobKind,
  jobId: string,
  signal: AbortSignal,
  pageSize = DEFAULT_RESULT_PAGE_SIZE,
): Promise<PlatformState> {
  const call = { signal };
  if (kind === "extract") {
    const doc = await client.getExtractJob(jobId, call);
    return { ...common(doc), kind, doc };
  }
  if (kind === "batch") {
    const doc = await client.getBatch(jobId, { page: 1, pageSize }, call);
    return { ...common(doc), kind, doc };
  }
  const doc = await client.getCrawl(jobId, { page: 1, pageSize }, call);
  return { ...common(doc), kind, doc };
}

/** The URL to show and search by: the extracted page, the first URL of a batch, the crawl's seed. */
export function stateUrl(state: PlatformState): string | null {
  if (state.kind === "extract") return state.doc.metadata?.url ?? null;
  if (state.kind === "batch") return state.doc.results[0]?.url ?? null;
  return state.doc.url;
}
