import "server-only";
import { log } from "../log";
import {
  DEFAULT_BREAKER_CAP_MS,
  DEFAULT_OUTAGE_AFTER,
  platformDown,
  probeBackoffMs,
  type Breaker,
  type BreakerOptions,
  type Pass,
} from "./breaker";
import { CLOSED, databaseBreakerStore, type BreakerRow, type BreakerStore } from "./shared-breaker-store";

/*
 * The circuit breaker shared by every process on one database (issue 50): one row's columns
 * (PlatformBudget, beside the rate budget), so when it opens in one process it is open in all, and one
 * process at a time sends the probe.
 *
 * DESIGN. Each process counts its own calls in a row that failed (5xx, timeout, no connection); the one
 * that reaches `outageAfter` opens the breaker for everyone with one conditional UPDATE (only if it is
 * closed: the first opener's time, name and reason are kept). It writes who it is (host:pid:tag), the
 * failure that tripped it and when the first probe may go (1 s later). From then on no process sends:
 * its calls fail at once with PLATFORM_DOWN and how long to wait. Once that time has passed, the first
 * process with a call to make claims the probe: an UPDATE that succeeds only while nobody holds the
 * lease (probeUntil in the past), so exactly one process sends. A failed probe moves the next probe out
 * (2 s, 4 s … up to TALLY_PLATFORM_BREAKER_MAX_SECONDS, 60 s) and gives up the lease; any answer that is
 * not a 5xx closes the breaker for everyone. A prober that dies frees its lease when it runs out (the
 * call's timeout and the budget's wait, plus 5 s).
 *
 * CACHE. Each process keeps the row for CACHE_MS (1 s) and reads it again, awaited, before the next call
 * after that: one SELECT a second per process that calls the platform, none while idle, and a call's
 * decision never waits for more than that read. So an open breaker is seen by every other process
 * within CACHE_MS plus one read (and the opener's write), and a closed one likewise: every process sends
 * again within about a second of the probe's answer. 1 s is far below the shortest wait between probes
 * (1 s, then longer), so the cache never lets a process probe out of turn: the probe itself goes
 * through the claim, never through the cache. What the cache can let through is a process's calls in
 * the second before it sees the breaker open, and those stop anyway at that process's own count of
 * failures in a row (outageAfter).
 *
 * WORST CASE. N processes send while it opens: each at most outageAfter calls in a row that fail (plus
 * the calls it had in flight) before the breaker stops it, whether it saw the row yet or not. While it
 * is open the platform sees what one process would send: one probe at a time on one schedule. If the
 * database is unreachable the process falls back to its own count and its own probes (a LocalBreaker's
 * behaviour), as every process did before the breaker was shared.
 */

export const CACHE_MS = 1000;
/** A probe's lease outlives its call: the budget's wait (HORIZON_MS) and a margin. */
const LEASE_MARGIN_MS = 6000;

export type SharedBreakerOptions = BreakerOptions & {
  key: string;
  /** This process in the row: who opened it, who probes (host:pid:tag). */
  me: string;
  /** The client's timeout per attempt: a probe's lease lasts longer. */
  timeoutMs: number;
  store?: BreakerStore;
};

export type BreakerStats = { reads: number; writes: number; claims: number };

export class SharedBreaker implements Breaker {
  private readonly outageAfter: number;
  private readonly capMs: number;
  private readonly now: () => number;
  private readonly store: BreakerStore;
  /** The row as last read or written, and when. */
  private view: BreakerRow = CLOSED;
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;
  private claiming: Promise<BreakerRow | null> | null = null;
  /** This process's calls in a row that failed. */
  private failingInARow = 0;
  /**
   * Open here before (or without) the row saying so: from the trip until the opening is written, or for
   * as long as the database cannot be reached. Then the process probes on its own, one at a time.
   */
  private local: { until: number; probing: boolean } | null = null;
  /** Writes go one after another (an open never overtakes a close); each bumps `version`. */
  private writes: Promise<void> = Promise.resolve();
  private version = 0;
  private seq = 0;
  readonly stats: BreakerStats = { reads: 0, writes: 0, claims: 0 };

  constructor(private readonly opts: SharedBreakerOptions) {
    this.outageAfter = opts.outageAfter ?? DEFAULT_OUTAGE_AFTER;
    this.capMs = opts.capMs ?? DEFAULT_BREAKER_CAP_MS;
    this.now = opts.now ?? Date.now;
    this.store = opts.store ?? databaseBreakerStore;
  }

  async admit(endpoint: string): Promise<Pass> {
    await this.refresh();
    const now = this.now();
    if (this.local) {
      const local = this.local;
      if (now < local.until || local.probing)
        throw platformDown(endpoint, this.localWhy(), Math.max(local.until - now, 0));
      local.probing = true;
      return this.pass({ probe: true, release: () => (local.probing = false) });
    }
    const v = this.view;
    if (v.downSince === 0) return this.pass({ probe: false });
    this.refuseWhileOpen(endpoint, v, now);
    // The wait is over and nobody probes: claim the probe (one claim in flight per process).
    if (this.claiming) throw platformDown(endpoint, this.why(v), 0);
    const token = `${this.opts.me}#${++this.seq}`;
    let claimed: BreakerRow | null;
    try {
      this.stats.claims++;
      this.claiming = this.store.claimProbe(this.opts.key, now, token, now + this.opts.timeoutMs + LEASE_MARGIN_MS);
      claimed = await this.claiming;
    } catch (err) {
      // The database is away too: probe on our own, as a process alone would.
      log.warn("platform breaker: probe not claimed", { error: String(err) });
      this.failingInARow = Math.max(this.failingInARow, v.downFailures, this.outageAfter);
      this.local = { until: 0, probing: true };
      const local = this.local;
      return this.pass({ probe: true, release: () => (local.probing = false) });
    } finally {
      this.claiming = null;
    }
    if (claimed) {
      this.note(claimed);
      return this.pass({ probe: true, token, failures: claimed.downFailures });
    }
    // Another process got it first (or it closed meanwhile): go by the row as it is now.
    this.readAt = -Infinity;
    await this.refresh();
    if (this.view.downSince === 0) return this.pass({ probe: false });
    throw platformDown(endpoint, this.why(this.view), 0);
  }

  private refuseWhileOpen(endpoint: string, v: BreakerRow, now: number): void {
    if (now < v.probeAt) throw platformDown(endpoint, this.why(v), v.probeAt - now);
    if (v.probeUntil > now) throw platformDown(endpoint, `${this.why(v)}; ${v.probeBy.split("#")[0]} is probing`, 0);
  }

  private why(v: BreakerRow): string {
    return `the platform counts as down since ${new Date(v.downSince).toISOString()} (opened by ${v.downBy}: ${v.downReason}; ${v.downFailures} calls in a row failed)`;
  }

  private localWhy(): string {
    return `the platform failed ${this.failingInARow} calls in a row (5xx or no answer)`;
  }

  private pass(p: { probe: boolean; token?: string; failures?: number; release?: () => void }): Pass {
    let done = false;
    return {
      probe: p.probe,
      recheck: (endpoint) => {
        if (p.probe) return;
        const now = this.now();
        if (this.local && now < this.local.until) throw platformDown(endpoint, this.localWhy(), this.local.until - now);
        if (this.view.downSince !== 0) throw platformDown(endpoint, this.why(this.view), this.view.probeAt - now);
      },
      failed: (why) => {
        done = true;
        return p.token !== undefined
          ? this.probeFailed(p.token, p.failures ?? this.outageAfter, why)
          : this.failed(why);
      },
      answered: () => {
        done = true;
        this.answered();
      },
      release: () => {
        p.release?.();
        if (p.token !== undefined && !done) {
          const token = p.token;
          this.write(() => this.store.releaseProbe(this.opts.key, token).then(() => null));
        }
        done = true;
      },
    };
  }

  /** Reads the row if the copy here is older than CACHE_MS (one read in flight; a failed read keeps the copy). */
  private async refresh(): Promise<void> {
    if (this.now() - this.readAt < CACHE_MS) return;
    this.reading ??= (async () => {
      const version = this.version;
      try {
        this.stats.reads++;
        const row = await this.store.read(this.opts.key);
        // A write of ours since the read began knows better (its RETURNING, or what it wrote).
        if (version === this.version) this.note(row);
      } catch (err) {
        log.warn("platform breaker not read", { error: String(err) });
        this.readAt = this.now();
      } finally {
        this.reading = null;
      }
    })();
    await this.reading;
  }

  private note(row: BreakerRow): void {
    this.view = row;
    this.readAt = this.now();
  }

  private write(op: () => Promise<BreakerRow | null>, onWritten?: () => void): void {
    this.version++;
    this.stats.writes++;
    this.writes = this.writes
      .then(op)
      .then((row) => {
        if (row) this.note(row);
        onWritten?.();
      })
      .catch((err) => log.warn("platform breaker not written", { error: String(err) }));
  }

  /** Waits for the writes under way (tests, shutdown). */
  settled(): Promise<void> {
    return this.writes;
  }

  private failed(why: string): number | undefined {
    const now = this.now();
    this.failingInARow++;
    // Already open for everyone (a call that was on its way when it opened): wait like the others.
    if (!this.local && this.view.downSince !== 0) return Math.max(1000, this.view.probeAt - now);
    if (this.failingInARow < this.outageAfter) return undefined;
    const ms = probeBackoffMs(this.failingInARow - this.outageAfter, this.capMs);
    // Open here at once; for everyone once written. Kept local while the database cannot be reached.
    const local = { until: now + ms, probing: false };
    this.local = local;
    const failures = this.failingInARow;
    this.write(
      () => this.store.open(this.opts.key, { nowMs: now, by: this.opts.me, reason: why, failures, probeAt: now + ms }),
      () => {
        if (this.local === local) this.local = null;
      },
    );
    return ms;
  }

  private probeFailed(token: string, failuresBefore: number, why: string): number {
    const now = this.now();
    const failures = failuresBefore + 1;
    const ms = probeBackoffMs(failures - this.outageAfter, this.capMs);
    const probeAt = now + ms;
    this.view = { ...this.view, probeAt, probeBy: "", probeUntil: 0, downFailures: failures, downFailureAt: now };
    this.write(async () => {
      const row = await this.store.probeFailed(this.opts.key, { token, nowMs: now, reason: why, failures, probeAt });
      // The lease ran out and another process probes, or an answer closed it: read what is.
      return row ?? this.store.read(this.opts.key);
    });
    return ms;
  }

  private answered(): void {
    this.failingInARow = 0;
    const wasOpen = this.local !== null || this.view.downSince !== 0;
    this.local = null;
    if (!wasOpen) return;
    const now = this.now();
    this.view = { ...CLOSED, upAt: now, upBy: this.opts.me };
    this.readAt = now;
    this.write(() => this.store.close(this.opts.key, now, this.opts.me).then(() => null));
  }
}
