import "server-only";
import { z } from "zod";
import { batchRequestSchema, crawlRequestSchema, extractRequestSchema } from "@/lib/platform/contract";
import type { SimCore } from "./core";
import { buildItems } from "./items";
import { DEFAULT_FORMATS, jobError, type NewJob, type SimJob } from "./jobs";
import { createRng, hashSeed } from "./rng";

// Bulk seeding, test mode only: many jobs that settled long ago, made in one go without timers or
// webhooks (history, not traffic), e.g. the 100,000 platform jobs a reconciliation benchmark lists.
// Submitting them through the API instead would take minutes and fire a webhook each.

export const seedRequestSchema = z.strictObject({
  count: z.number().int().min(1).max(200_000),
  kind: z.enum(["extract", "batch", "crawl"]).default("extract"),
  status: z.enum(["completed", "failed", "cancelled"]).default("completed"),
  /** How long ago the newest of them settled; the others settled `spacingSeconds` apart before it. */
  ageSeconds: z
    .number()
    .int()
    .min(0)
    .max(365 * 86_400)
    .default(3600),
  /** Seconds between two of them (a history of 100,000 jobs one second apart is a busy day, not a month). */
  spacingSeconds: z.number().min(0.001).max(86_400).default(1),
});
export type SeedRequest = z.input<typeof seedRequestSchema>;

export type SeedResult = { ok: true; ids: string[] } | { ok: false; reason: string };

const TEMPLATES = {
  extract: extractRequestSchema.parse({ url: "https://example.com/", processing_mode: "async" }),
  batch: batchRequestSchema.parse({ urls: ["https://example.com/"] }),
  crawl: crawlRequestSchema.parse({ url: "https://example.com/", depth: 1, limit: 5 }),
};
const SECTIONS = ["products", "blog", "catalogue", "docs", "news", "reviews", "support", "pricing"];

function newJob(kind: SimJob["kind"], n: number): NewJob {
  const url = `https://shop-${n % 97}.example.com/${SECTIONS[n % SECTIONS.length]}/item-${n}`;
  if (kind === "batch") {
    const urls = [url, `${url}?page=2`, `${url}?page=3`];
    return { kind, request: { ...TEMPLATES.batch, urls }, urls, invalidUrls: [] };
  }
  return kind === "crawl"
    ? { kind, request: { ...TEMPLATES.crawl, url } }
    : { kind, request: { ...TEMPLATES.extract, url } };
}

/** Creates `count` settled jobs; their ids come from the id stream, so a seed replays. */
export function seedJobs(core: SimCore, input: unknown): SeedResult {
  if (core.mode !== "test") return { ok: false, reason: "seeding is only available in test mode" };
  const parsed = seedRequestSchema.safeParse(input);
  if (!parsed.success)
    return {
      ok: false,
      reason: parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; "),
    };
  const { count, kind, status, ageSeconds, spacingSeconds } = parsed.data;
  const cfg = core.config();
  const ids = core.streams().ids;
  const now = Date.now();
  const first = core.jobs.countByStatus();
  const offset = Object.values(first).reduce((a, b) => a + b, 0);
  const rng = createRng(hashSeed(cfg.seed, `seed:${offset}:${kind}:${status}:${count}`));
  const jobs: SimJob[] = [];
  // Oldest first, so the list's newest-first order matches their times.
  for (let i = count - 1; i >= 0; i--) {
    const input = newJob(kind, offset + count - i);
    const completedAt = now - ageSeconds * 1000 - Math.round(i * spacingSeconds * 1000);
    const durationMs = rng.range(cfg.jobDurationMs);
    const fail = status === "failed";
    const error = fail ? jobError(rng, rng.chance(cfg.retryableShare)) : null;
    const view = { status, completedAt };
    const job: SimJob = {
      ...input,
      id: ids.uuid(),
      seq: 0,
      createdAt: completedAt - durationMs,
      status,
      completedAt,
      final: view,
      formats: input.request.formats ?? DEFAULT_FORMATS[kind],
      error,
      items: [],
      plan: { durationMs, fail, retryable: error?.retryable ?? false, early: false, error },
      fingerprint: `${kind}:${JSON.stringify(input.request)}`,
      timers: [],
    };
    job.items = buildItems(job, cfg, error, status === "cancelled", true);
    jobs.push(job);
  }
  core.jobs.adopt(jobs);
  return { ok: true, ids: jobs.map((j) => j.id) };
}
