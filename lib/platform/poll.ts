import "server-only";
import type { JobKind, NormalizedJob, PlatformClient } from "./http-client";
import { JobTimeout, RateLimited, PlatformError } from "./errors";
import { realSleep, type Sleep } from "./rate-limit";
import { isTerminal } from "./schemas";

export type PollOptions = {
  /** First backoff ceiling; the actual sleep is uniform in [0, delay]. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Hard limit on the whole poll, 429 waits included, measured from the call. */
  deadlineMs?: number;
  signal?: AbortSignal;
  now?: () => number;
  random?: () => number;
  sleep?: Sleep;
};

export type PollableClient = Pick<PlatformClient, "getJob">;

/**
 * Polls until the job settles (completed, failed or cancelled). Polls at once, then sleeps with full
 * jitter while the delay doubles up to the cap. Unlike the source article's loop, the deadline is
 * checked on every path, a 429 included: a wait that would end past the deadline throws JobTimeout
 * at once instead of sleeping. Transient errors (5xx, network, timeouts) count as "not yet".
 */
export async function pollJob(
  client: PollableClient,
  kind: JobKind,
  jobId: string,
  opts: PollOptions = {},
): Promise<NormalizedJob> {
  const now = opts.now ?? Date.now;
  const random = opts.random ?? Math.random;
  const sleep = opts.sleep ?? realSleep;
  const maxDelayMs = opts.maxDelayMs ?? 30_000;
  const start = now();
  const deadline = start + (opts.deadlineMs ?? 15 * 60_000);
  const signal = opts.signal;
  let delay = Math.min(opts.initialDelayMs ?? 1000, maxDelayMs);
  let lastStatus: string | null = null;

  const timedOut = () => new JobTimeout({ jobId, lastStatus, elapsedMs: now() - start });
  const nextBackoff = () => {
    const wait = Math.floor(random() * delay);
    delay = Math.min(maxDelayMs, delay * 2);
    return wait;
  };

  for (;;) {
    signal?.throwIfAborted();
    if (now() >= deadline) throw timedOut();
    let waitMs: number;
    try {
      const job = await client.getJob(kind, jobId, { signal, deadline });
      lastStatus = job.status;
      if (isTerminal(job.status)) return job;
      waitMs = nextBackoff();
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (err instanceof RateLimited) waitMs = err.retryAfterMs;
      else if (err instanceof PlatformError && err.retryable) waitMs = nextBackoff();
      else throw err;
    }
    if (now() + waitMs >= deadline) throw timedOut();
    await sleep(waitMs, signal);
  }
}
