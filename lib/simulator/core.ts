import "server-only";
import { ContentVersions } from "./content-versions";
import { initialConfig, mergeConfig, type SimConfig, type SimConfigPatch, type SimMode } from "./config";
import { DeliveryEngine } from "./deliveries";
import { JobStore } from "./jobs";
import { createStreams, type Streams } from "./rng";
import { Scheduler } from "./scheduler";
import { WebhookStore } from "./webhooks";

export type ForcedFault = {
  kind: "rate_limit" | "server_error" | "slow";
  status?: number;
  retryAfter?: "seconds" | "http-date" | "none";
};

/** One API call as the simulator saw it: arrival (ms since the epoch) and the status it answered. */
export type ApiCall = { at: number; status: number };
const MAX_API_CALLS = 100_000;

export type CoreOptions = {
  apiKey?: string;
  mode: SimMode;
  seed?: number;
  config?: SimConfigPatch;
  log?: (msg: string) => void;
};

/** All simulator state, independent of HTTP so it can be inspected and reset in-process. */
export function createCore(opts: CoreOptions) {
  const log = opts.log ?? (() => undefined);
  let config: SimConfig = initialConfig(opts.mode, opts.seed, opts.config);
  let streams: Streams = createStreams(config.seed);
  let abort = new AbortController();
  const scheduler = new Scheduler(log);
  const webhooks = new WebhookStore();
  const content = new ContentVersions();
  const deliveries = new DeliveryEngine({
    config: () => config,
    streams: () => streams,
    scheduler,
    webhooks,
    signal: () => abort.signal,
    log,
  });
  const jobs = new JobStore({
    config: () => config,
    streams: () => streams,
    scheduler,
    onSettled: (job) => deliveries.dispatch(job),
    onEvicted: (jobId) => deliveries.forgetJob(jobId),
    content,
  });
  const forcedFaults: ForcedFault[] = [];
  let rateLimitCount = 0;
  const apiCalls: ApiCall[] = [];

  return {
    mode: opts.mode,
    apiKey: opts.apiKey,
    log,
    scheduler,
    jobs,
    webhooks,
    deliveries,
    /** Each URL's content version so far (the knob contentChangeRate). */
    content,
    forcedFaults,
    config: () => config,
    streams: () => streams,
    /** Every /v1/* call's arrival time and answer (the newest MAX_API_CALLS), to check a caller's rate. */
    apiCalls,
    recordApiCall(call: ApiCall): void {
      apiCalls.push(call);
      if (apiCalls.length > MAX_API_CALLS) apiCalls.splice(0, apiCalls.length - MAX_API_CALLS);
    },
    /** Counts 429s so the alternate Retry-After form really alternates. */
    nextRateLimitIndex: () => rateLimitCount++,

    /** Throws on an invalid patch (in-process callers); the HTTP route answers 400 instead. */
    setConfig(patch: unknown): SimConfig {
      const merged = mergeConfig(config, patch);
      if (!merged.ok) throw new Error(`invalid simulator config: ${merged.reason}`);
      const reseed = merged.config.seed !== config.seed;
      config = merged.config;
      if (reseed) streams = createStreams(config.seed);
      return config;
    },

    /** Clears jobs, webhooks, deliveries and timers; keeps the config and replays from its seed. */
    reset(): void {
      scheduler.clearAll();
      abort.abort();
      abort = new AbortController();
      jobs.clear();
      webhooks.clear();
      deliveries.clear();
      forcedFaults.length = 0;
      rateLimitCount = 0;
      apiCalls.length = 0;
      content.reset();
      streams = createStreams(config.seed);
    },

    state() {
      const byStatus = jobs.countByStatus();
      const deliveriesByStatus = deliveries.countByStatus();
      const perJob: Record<string, PerJobState> = {};
      for (const job of jobs.all()) {
        const s = deliveries.peekStats(job.id);
        perJob[job.id] = {
          kind: job.kind,
          status: job.status,
          sent: s?.sent ?? 0,
          dropped: s?.dropped ?? 0,
          duplicated: s?.duplicated ?? 0,
          delivered: s?.delivered ?? 0,
          lastHttpStatus: s?.lastHttpStatus ?? null,
          // What the platform charged for the job (its items, once it settled): the chaos run's token check.
          tokensCharged: job.items.reduce((sum, i) => sum + i.tokensCharged, 0),
          ...(job.resubmittedFrom ? { resubmittedFrom: job.resubmittedFrom } : {}),
        };
      }
      return {
        jobs: { byStatus, total: Object.values(byStatus).reduce((a, b) => a + b, 0) },
        deliveries: {
          byStatus: deliveriesByStatus,
          total: Object.values(deliveriesByStatus).reduce((a, b) => a + b, 0),
        },
        webhooks: webhooks.size(),
        perJob,
      };
    },

    close(): void {
      scheduler.clearAll();
      abort.abort();
    },
  };
}

export type PerJobState = {
  kind: string;
  status: string;
  sent: number;
  dropped: number;
  duplicated: number;
  delivered: number;
  lastHttpStatus: number | null;
  tokensCharged: number;
  resubmittedFrom?: string;
};

export type SimCore = ReturnType<typeof createCore>;
export type SimState = ReturnType<SimCore["state"]>;
