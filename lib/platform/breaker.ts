import "server-only";
import { Upstream } from "./errors";

// The client's circuit breaker: calls in a row answered 5xx or not at all (a timeout, no connection).
// From `outageAfter` on the platform counts as down: calls fail at once, without being sent, until a
// backoff (1 s, doubling with each failed probe up to capMs) has passed; then one call goes through as
// the probe. The error says how long to wait (platformDownMs), so queue items wait without spending
// attempts, an operator's submit is answered at once, and the platform sees a trickle of probes, not
// the whole budget. Any other answer (2xx, 4xx, 429) closes it.
//
// Two kinds: LocalBreaker (this file) keeps the state in memory, for a client of its own (tests,
// scripts); SharedBreaker (shared-breaker.ts) keeps it in the database, one for every process on it.

/** What admit() granted one call: it reports the call's end through it. */
export type Pass = {
  /** This call is the one probe of an open breaker. */
  readonly probe: boolean;
  /** Just before sending, after the rate budget's wait: throws `PLATFORM_DOWN` if it opened meanwhile. */
  recheck(endpoint: string): void;
  /** The platform failed this call (5xx, timeout, no connection): platformDownMs once it counts as down. */
  failed(why: string): number | undefined;
  /** Any other answer: the platform is up. */
  answered(): void;
  /** Called once the call is over, sent or not: a probe never sent (aborted, past its deadline) is given back. */
  release(): void;
};

export interface Breaker {
  /** Resolves when the call may be sent; throws Upstream `PLATFORM_DOWN` (with platformDownMs) when not. */
  admit(endpoint: string): Promise<Pass>;
}

export type BreakerOptions = {
  /** Calls in a row answered 5xx or not at all before the platform counts as down (default 5: more than one GET and its retries). */
  outageAfter?: number;
  /** The longest wait between probes (default 60 s); it doubles from 1 s with each failed probe. */
  capMs?: number;
  now?: () => number;
};

export const DEFAULT_OUTAGE_AFTER = 5;
export const DEFAULT_BREAKER_CAP_MS = 60_000;

/** The wait before the next probe once `beyond` probes have failed (0: it just opened). */
export function probeBackoffMs(beyond: number, capMs: number): number {
  return Math.min(capMs, 1000 * 2 ** Math.max(0, Math.min(beyond, 30)));
}

/** The refusal of a call while the platform counts as down. */
export function platformDown(endpoint: string, why: string, waitMs: number): Upstream {
  const ms = Math.max(1000, Math.ceil(waitMs));
  const err = new Upstream({
    status: 503,
    code: "PLATFORM_DOWN",
    message: `${endpoint}: not sent: ${why}; next try in ${Math.ceil(ms / 1000)} s`,
    retryable: true,
  });
  err.platformDownMs = ms;
  return err;
}

/** One process's breaker, in memory. */
export class LocalBreaker implements Breaker {
  private failingInARow = 0;
  private downUntil = 0;
  private probing = false;
  private readonly outageAfter: number;
  private readonly capMs: number;
  private readonly now: () => number;

  constructor(opts: BreakerOptions = {}) {
    this.outageAfter = opts.outageAfter ?? DEFAULT_OUTAGE_AFTER;
    this.capMs = opts.capMs ?? DEFAULT_BREAKER_CAP_MS;
    this.now = opts.now ?? Date.now;
  }

  private refuseIfDown(endpoint: string): void {
    if (this.failingInARow < this.outageAfter) return;
    const left = this.downUntil - this.now();
    if (left > 0 || this.probing)
      throw platformDown(endpoint, `the platform failed ${this.failingInARow} calls in a row (5xx or no answer)`, left);
  }

  async admit(endpoint: string): Promise<Pass> {
    const probe = this.failingInARow >= this.outageAfter;
    this.refuseIfDown(endpoint);
    if (probe) this.probing = true;
    let released = false;
    return {
      probe,
      recheck: (e) => {
        if (!probe) this.refuseIfDown(e);
      },
      failed: () => {
        this.failingInARow++;
        if (this.failingInARow < this.outageAfter) return undefined;
        const ms = probeBackoffMs(this.failingInARow - this.outageAfter, this.capMs);
        this.downUntil = this.now() + ms;
        return ms;
      },
      answered: () => {
        this.failingInARow = 0;
      },
      release: () => {
        if (probe && !released) this.probing = false;
        released = true;
      },
    };
  }
}
