import "server-only";
import type { JobStatus } from "@/lib/platform/contract";
import type { SimConfig } from "./config";
import type { ContentVersions } from "./content-versions";
import { buildItems } from "./items";
import type { JobBase, JobErrorDoc, JobKind, NewJob, SimJob, View } from "./job-types";

export type { JobErrorDoc, JobKind, NewJob, SimJob, View };
import type { Streams } from "./rng";
import type { Scheduler } from "./scheduler";

const RETRYABLE_CODES = ["RATE_LIMITED", "TIMEOUT", "UPSTREAM_UNAVAILABLE"];
const PERMANENT_CODES = ["EXTRACTION_FAILED", "TARGET_NOT_FOUND", "BLOCKED_BY_TARGET"];
export const DEFAULT_FORMATS: Record<JobKind, string[]> = {
  extract: ["html"],
  batch: ["markdown"],
  crawl: ["markdown"],
};

/** Test hooks in URLs: "sim-fail-retryable" fails retryably (a resubmission then succeeds), "sim-fail" fails for good. */
export function forcedOutcome(
  urls: readonly string[],
  resubmission: boolean,
): { fail: boolean; retryable: boolean } | null {
  if (urls.some((u) => u.includes("sim-fail-retryable"))) return { fail: !resubmission, retryable: true };
  if (urls.some((u) => u.includes("sim-fail"))) return { fail: true, retryable: false };
  return null;
}

export const jobUrls = (job: NewJob | SimJob): string[] => (job.kind === "batch" ? job.urls : [job.request.url]);

export function jobError(rng: Streams["jobs"], retryable: boolean): JobErrorDoc {
  const code = rng.pick(retryable ? RETRYABLE_CODES : PERMANENT_CODES);
  return {
    code,
    message: `simulated failure: ${code.toLowerCase().replace(/_/g, " ")}`,
    retryable,
    details: { simulated: "true" },
  };
}

/** In-memory jobs and their lifecycle: queued → processing → completed | failed | cancelled. */
export class JobStore {
  private readonly jobs = new Map<string, SimJob>();
  private readonly failedByFingerprint = new Map<string, string[]>();
  /** Newest-first lists per kind, dropped whenever a job comes or goes: paging through 100,000 jobs must not re-sort them per page. */
  private readonly lists = new Map<JobKind, SimJob[]>();
  private seq = 0;

  constructor(
    private readonly deps: {
      config: () => SimConfig;
      streams: () => Streams;
      scheduler: Scheduler;
      /** Called once per job when it settles (possibly before GET shows it: early webhooks). */
      onSettled: (job: SimJob) => void;
      /** Called when an old settled job is forgotten, so per-job bookkeeping elsewhere goes too. */
      onEvicted: (jobId: string) => void;
      /** Which version of each URL's content a serving gets (the knob contentChangeRate). */
      content?: ContentVersions;
    },
  ) {}

  get(id: string): SimJob | undefined {
    return this.jobs.get(id);
  }

  /** Newest first (the platform's order is undocumented; newest first is the common one). The map keeps insertion (seq) order. */
  list(kind: JobKind): readonly SimJob[] {
    let list = this.lists.get(kind);
    if (!list) this.lists.set(kind, (list = [...this.jobs.values()].filter((j) => j.kind === kind).reverse()));
    return list;
  }

  all(): IterableIterator<SimJob> {
    return this.jobs.values();
  }

  clear(): void {
    this.jobs.clear();
    this.failedByFingerprint.clear();
    this.lists.clear();
  }

  /** Takes in settled jobs built elsewhere (bulk seeding): no timers, no webhooks; retention still applies. */
  adopt(jobs: readonly SimJob[]): void {
    for (const job of jobs) this.jobs.set(job.id, Object.assign(job, { seq: ++this.seq }));
    this.lists.clear();
    this.evict(this.deps.config().retainJobs);
  }

  create(input: NewJob): SimJob {
    const cfg = this.deps.config();
    const { ids, jobs: rng } = this.deps.streams();
    const fingerprint = input.kind + ":" + JSON.stringify(input.request);
    const resubmittedFrom = this.failedByFingerprint.get(fingerprint)?.shift();
    const forced = forcedOutcome(jobUrls(input), resubmittedFrom !== undefined);
    const durationMs = rng.range(cfg.jobDurationMs);
    const fail = forced ? forced.fail : rng.chance(cfg.failureRate);
    const retryable = forced ? forced.retryable : fail && rng.chance(cfg.retryableShare);
    const early = rng.chance(cfg.earlyWebhookRate);
    const error = fail ? jobError(rng, retryable) : null;
    const base: JobBase = {
      id: ids.uuid(),
      seq: ++this.seq,
      createdAt: Date.now(),
      status: "queued",
      completedAt: null,
      final: null,
      formats: input.request.formats ?? DEFAULT_FORMATS[input.kind],
      error: null,
      items: [],
      plan: { durationMs, fail, retryable, early, error },
      fingerprint,
      resubmittedFrom,
      timers: [],
    };
    const job: SimJob = { ...base, ...input };
    this.jobs.set(job.id, job);
    this.lists.clear();
    const { scheduler } = this.deps;
    job.timers.push(
      scheduler.after(Math.floor(durationMs / 5), () => {
        if (job.status === "queued") job.status = "processing";
      }),
      scheduler.after(durationMs, () => this.settle(job)),
    );
    this.evict(cfg.retainJobs);
    return job;
  }

  private settle(job: SimJob): void {
    if (job.final) return;
    const cfg = this.deps.config();
    const now = Date.now();
    const { fail, early } = job.plan;
    job.error = job.plan.error;
    job.items = buildItems(job, cfg, fail ? job.error : null, false, false, this.deps.content);
    job.final = { status: fail ? "failed" : "completed", completedAt: now };
    if (fail)
      this.failedByFingerprint.set(job.fingerprint, [...(this.failedByFingerprint.get(job.fingerprint) ?? []), job.id]);
    const apply = () => {
      job.status = job.final?.status ?? job.status;
      job.completedAt = job.final?.completedAt ?? job.completedAt;
    };
    if (early && cfg.earlyWebhookLagMs > 0) {
      if (job.status === "queued") job.status = "processing";
      job.timers.push(this.deps.scheduler.after(cfg.earlyWebhookLagMs, apply));
    } else {
      apply();
    }
    this.deps.onSettled(job);
  }

  /** "finished" when the job has already settled (even if GET does not show it yet). */
  cancel(id: string): { result: "ok"; job: SimJob } | { result: "not_found" | "finished" } {
    const job = this.jobs.get(id);
    if (!job) return { result: "not_found" };
    if (job.final) return { result: "finished" };
    for (const t of job.timers) this.deps.scheduler.cancel(t);
    const now = Date.now();
    job.final = { status: "cancelled", completedAt: now };
    job.status = "cancelled";
    job.completedAt = now;
    job.items = buildItems(job, this.deps.config(), null, true);
    this.deps.onSettled(job);
    return { result: "ok", job };
  }

  countByStatus(): Record<JobStatus, number> {
    const counts: Record<JobStatus, number> = { queued: 0, processing: 0, completed: 0, failed: 0, cancelled: 0 };
    for (const job of this.jobs.values()) counts[job.status]++;
    return counts;
  }

  private evict(limit: number): void {
    if (this.jobs.size <= limit) return;
    for (const job of this.jobs.values()) {
      if (this.jobs.size <= limit) break;
      if (job.status !== "completed" && job.status !== "failed" && job.status !== "cancelled") continue;
      this.jobs.delete(job.id);
      this.lists.clear();
      const failed = this.failedByFingerprint.get(job.fingerprint)?.filter((id) => id !== job.id) ?? [];
      if (failed.length > 0) this.failedByFingerprint.set(job.fingerprint, failed);
      else this.failedByFingerprint.delete(job.fingerprint);
      this.deps.onEvicted(job.id);
    }
  }
}
