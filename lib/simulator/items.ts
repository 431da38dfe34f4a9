import "server-only";
import type { SimConfig } from "./config";
import type { ContentVersions } from "./content-versions";
import { linksOf, pageContent } from "./content";
import { fetchOptions, servedContent, servedKind, tokensFor } from "./page-kinds";
import type { ItemResult, JobErrorDoc, SimJob } from "./job-types";

export type { ItemResult };
import { createRng, hashSeed } from "./rng";

const pinnedStatus = (url: string): number | null => {
  const m = /item-fail-(\d{3})/.exec(url);
  return m ? Number(m[1]) : null;
};

function item(
  job: SimJob,
  cfg: SimConfig,
  url: string,
  index: number,
  outcome: { error: JobErrorDoc | null; cancelled: boolean; lazyContent: boolean },
  place: { inputIndex: number | null; parentUrl: string | null; depth: number; links: string[] },
  versions?: ContentVersions,
): ItemResult {
  // Per-item draws come from a stream derived from (seed, job, index): stable whatever else happens.
  const rng = createRng(hashSeed(cfg.seed, `${job.id}:${index}`));
  // "item-blocked" in a URL: the platform itself reports the item BLOCKED (403), unless routed residential.
  const platformBlocked =
    !outcome.cancelled && url.includes("item-blocked") && fetchOptions(job.request).proxyType !== "residential";
  const itemFails =
    !outcome.cancelled &&
    (outcome.error !== null || platformBlocked || url.includes("item-fail") || rng.chance(cfg.itemFailureRate));
  const status = outcome.cancelled ? "cancelled" : itemFails ? "failed" : "completed";
  const extractLinks = job.kind === "extract" && job.request.extract_links === true;
  const version = status === "completed" && versions ? versions.serve(cfg.seed, url, cfg.contentChangeRate) : 0;
  const real = () =>
    pageContent({
      seed: cfg.seed,
      url,
      formats: job.formats,
      extractLinks,
      hostileShare: cfg.hostileShare,
      version,
      bodyBytes: cfg.bodyBytes,
    });
  // The content knobs (page-kinds.ts): a block page, an empty shell, a soft 404 or a cut page, all status 200.
  const opts = fetchOptions(job.request);
  const served = servedKind(cfg, url, opts);
  if (status === "completed" && versions) versions.noteServed(url, served, opts);
  const render = () => servedContent(cfg.seed, url, served, real, job.formats);
  const result: ItemResult = {
    url,
    status,
    errorCode:
      status === "failed" ? (outcome.error?.code ?? (platformBlocked ? "BLOCKED" : "EXTRACTION_FAILED")) : null,
    errorMessage:
      status === "failed"
        ? (outcome.error?.message ??
          (platformBlocked ? "blocked by the target's bot protection" : "simulated item failure"))
        : null,
    content: status === "completed" && !outcome.lazyContent ? render() : null,
    // "item-fail-404" (any 3 digits) pins the target's status, for tests that need a known failure.
    httpStatus:
      status === "completed"
        ? 200
        : status === "failed"
          ? (pinnedStatus(url) ?? (platformBlocked ? 403 : rng.pick([403, 404, 500, 503])))
          : null,
    durationMs: rng.int(150, 4000),
    tokensCharged: status === "completed" ? tokensFor(cfg, opts) : 0,
    ...place,
  };
  // Bulk-seeded jobs render their page on each read instead of holding it: 100,000 rendered pages
  // would cost gigabytes, and the content is a pure function of (seed, URL), so every read agrees.
  if (status === "completed" && outcome.lazyContent)
    Object.defineProperty(result, "content", { get: render, enumerable: true });
  return result;
}

/** Breadth-first pages under the seed, bounded by depth and limit; stable per (seed, URL). */
function crawlTree(seed: number, root: string, maxDepth: number, limit: number) {
  const rng = createRng(hashSeed(seed, "crawl:" + root));
  const target = Math.min(limit, rng.int(3, 8));
  const pages: { url: string; parentUrl: string | null; depth: number; links: string[] }[] = [];
  const queue: { url: string; parentUrl: string | null; depth: number }[] = [{ url: root, parentUrl: null, depth: 1 }];
  const seen = new Set<string>([root]);
  while (queue.length > 0 && pages.length < target) {
    const next = queue.shift();
    if (!next) break;
    const links = linksOf(seed, next.url, 3);
    pages.push({ ...next, links });
    if (next.depth >= maxDepth) continue;
    for (const link of links) {
      if (seen.has(link)) continue;
      seen.add(link);
      queue.push({ url: link, parentUrl: next.url, depth: next.depth + 1 });
    }
  }
  return pages;
}

export function buildItems(
  job: SimJob,
  cfg: SimConfig,
  error: JobErrorDoc | null,
  cancelled = false,
  lazyContent = false,
  versions?: ContentVersions,
): ItemResult[] {
  const outcome = { error, cancelled, lazyContent };
  if (job.kind === "extract") {
    return [
      item(job, cfg, job.request.url, 0, outcome, { inputIndex: null, parentUrl: null, depth: 1, links: [] }, versions),
    ];
  }
  if (job.kind === "batch") {
    return job.urls.map((url, i) =>
      item(job, cfg, url, i, outcome, { inputIndex: i, parentUrl: null, depth: 1, links: [] }, versions),
    );
  }
  // A cancelled or failed crawl only got as far as its seed page.
  const tree = crawlTree(cfg.seed, job.request.url, job.request.depth ?? 2, job.request.limit ?? 100);
  const pages = cancelled || error ? tree.slice(0, 1) : tree;
  return pages.map((p, i) => item(job, cfg, p.url, i, outcome, { inputIndex: null, ...p }, versions));
}
