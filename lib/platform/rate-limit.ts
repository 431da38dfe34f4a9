import "server-only";
import { countRateLimitedMs } from "../metrics";
import { RateLimited } from "./errors";

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** setTimeout as a promise that rejects with the signal's reason when aborted. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/**
 * Parses `Retry-After` in both RFC 9110 forms: delay-seconds ("120", decimals tolerated) or an
 * HTTP-date. Returns milliseconds to wait (never negative), or null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (text === "") return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only a real HTTP-date (it names a weekday and month) counts; Date.parse("-3") is a valid year.
  if (!/[A-Za-z]/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/**
 * Who goes first while callers wait for the budget, in this order: "urgent" fetches the results of a
 * job that has settled; "normal" is everything else (submits, polls, listings); "backlog" is work for
 * a backlog (jobs found by reconciliation), after all of that. A limiter that queues callers serves
 * them so (the shared budget does; the in-memory bucket, used only by one-off clients, ignores it).
 */
export const CALL_RANKS = ["urgent", "normal", "backlog"] as const;
export type CallRank = (typeof CALL_RANKS)[number];

export type AcquireOptions = { signal?: AbortSignal; deadline?: number; rank?: CallRank };

/**
 * What the client needs of a rate budget. RateLimiter keeps it in this process's memory; a shared
 * one (lib/platform/shared-budget.ts, injected by shared-client.ts) keeps it in the database so all
 * processes together stay within it. The client itself never learns which it has.
 */
export interface Limiter {
  /** Resolves when one call may be sent now; throws RateLimited rather than wait past `deadline`. */
  acquire(opts?: AcquireOptions): Promise<void>;
  /** Pauses every caller for `ms` (a 429's Retry-After); never shortens a longer pause. */
  pause(ms: number): void;
  /** Milliseconds left on the pause (0 when not paused). */
  pausedForMs(): number;
}

/**
 * One rate budget for every outgoing call: a token bucket (`requestsPerSecond`, `burst`) plus a
 * global pause that any 429 extends, so every caller waits out the platform's Retry-After, not
 * only the one that was told.
 */
export class RateLimiter implements Limiter {
  private tokens: number;
  private lastRefill: number;
  private pausedUntil = 0;

  constructor(private readonly opts: { requestsPerSecond: number; burst: number; now: () => number; sleep: Sleep }) {
    this.tokens = opts.burst;
    this.lastRefill = opts.now();
  }

  /** Extends the global pause; a shorter wait never shortens a longer one already in force. */
  pause(ms: number): void {
    const now = this.opts.now();
    countRateLimitedMs(now + ms - Math.max(this.pausedUntil, now));
    this.pausedUntil = Math.max(this.pausedUntil, now + ms);
  }

  /** Milliseconds left on the global pause (0 when not paused). */
  pausedForMs(): number {
    return Math.max(0, this.pausedUntil - this.opts.now());
  }

  /**
   * Waits for the pause to end and for a token. Throws RateLimited instead of sleeping past the
   * caller's deadline, so a long rate limit cannot hold a caller beyond its own time budget.
   */
  async acquire({ signal, deadline }: AcquireOptions = {}): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const now = this.opts.now();
      let waitMs: number;
      if (this.pausedUntil > now) {
        waitMs = this.pausedUntil - now;
        if (deadline !== undefined && now + waitMs > deadline) {
          throw new RateLimited({
            status: 429,
            code: "RATE_LIMITED",
            message: `rate limited for ${waitMs} ms, beyond the caller's deadline`,
            retryAfterMs: waitMs,
          });
        }
      } else {
        this.refill(now);
        if (this.tokens >= 1) {
          this.tokens -= 1;
          return;
        }
        waitMs = Math.ceil(((1 - this.tokens) / this.opts.requestsPerSecond) * 1000);
        if (deadline !== undefined) waitMs = Math.min(waitMs, Math.max(0, deadline - now));
      }
      await this.opts.sleep(Math.max(1, waitMs), signal);
    }
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.lastRefill) / 1000;
    this.tokens = Math.min(this.opts.burst, this.tokens + elapsed * this.opts.requestsPerSecond);
    this.lastRefill = now;
  }
}

/** Exponential backoff with full jitter: uniform in [0, min(cap, base * 2^attempt)]. */
export function fullJitter(attempt: number, baseMs: number, capMs: number, random: () => number): number {
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** attempt));
}

/**
 * Exponential delay with a ±20% spread around it: the mean stays the nominal delay. For scheduled
 * polls, not retries: full jitter (uniform in [0, d)) halves the mean delay and so doubles the calls a
 * poll schedule makes, and polls have no crowd to break up after a shared failure (the rate budget
 * already queues them); a proportional spread is enough to keep jobs submitted together from polling in
 * lockstep.
 */
export function spreadJitter(attempt: number, baseMs: number, capMs: number, random: () => number): number {
  const d = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(d * (0.8 + 0.4 * random()));
}
