import "server-only";
import { countRateLimitedMs } from "../metrics";
import { log } from "../log";
import { RateLimited } from "./errors";
import { CALL_RANKS, realSleep, type AcquireOptions, type Limiter, type Sleep } from "./rate-limit";
import { databaseBudgetStore, type BudgetStore } from "./shared-budget-store";

/*
 * The platform rate budget and the 429 pause, shared by every process on one database.
 *
 * DESIGN. The budget is a schedule of send times, not a count: one row holds `nextAt`, the earliest
 * send time nobody has claimed yet. A process leases n consecutive slots, `spacing` apart, with one
 * conditional UPDATE … RETURNING (start = max(nextAt, now, pausedUntil); only slots that start before
 * now + HORIZON are granted), keeps them in memory and sends each call at its slot. Every slot in the
 * whole deployment is therefore spacing apart from every other: in any window of one second at most
 * 1000 / spacing calls start, whoever sends them. A slot is used only if the call goes out within
 * LATE_MS of its time; a later one is dropped and the caller leases again. The platform sees arrival
 * times, not send times: a call may leave up to LATE_MS after its slot and spend a little longer than
 * its neighbour on the way (TRANSIT_MS: event loops of busy processes, the network). So spacing is
 * (1000 + LATE_MS + TRANSIT_MS) / TALLY_API_RPS ms: then calls delayed by up to that much more than
 * their neighbours still cannot put TALLY_API_RPS + 1 calls into one second (over a 5 s window the
 * same margin absorbs 750 ms of such delay). Over any window of W
 * seconds the total is at most W · TALLY_API_RPS. A fixed per-second counter (INSERT … ON CONFLICT
 * DO UPDATE … WHERE count < limit) would be as cheap but allows twice the budget in a second that
 * straddles two counters; the in-memory token bucket (burst = budget) allows the same.
 *
 * The 429 pause is the row's `pausedUntil`: the process that got the 429 writes it (and moves
 * `nextAt` past it, so no lease starts inside the pause); every process reads it before a call,
 * cached for PAUSE_CACHE_MS, and each lease returns it too.
 *
 * WORST CASE. Throughput is TALLY_API_RPS · 1000 / (1000 + LATE_MS + TRANSIT_MS): 87 % of the budget.
 * A call held up more than TRANSIT_MS longer than its neighbours (a machine overloaded for 100 ms
 * and more: seen on a 2-core box at load 10 with 50 ms) can still bring one call too many into a one-second window at the platform.
 * A process that dies holding a lease wastes at most HORIZON_MS of budget. Calls already past the
 * pause check when another process records a 429 still go out: at most PAUSE_CACHE_MS (+ one read
 * and one call's latency) of traffic after a 429. Machines must agree on the time (NTP): a clock that is s ms off
 * adds s to LATE_MS in the bound. If the database is unreachable, calls fail (acquire throws) rather
 * than go out unbudgeted.
 *
 * LEASE SIZE. Leased slots are consecutive in the global schedule, so a process that leases more than
 * it sends in that time takes budget from the others and wastes it. The size adapts: at least the
 * callers waiting without a slot; doubled (up to half the horizon) after a lease whose slots were all
 * used, halved after one whose slots partly expired. A saturated process soon leases many slots per
 * round trip (and leases the next batch while using the last); a process calling below the budget
 * leases one or two at a time and wastes little.
 *
 * PRIORITY. Within a process callers go by rank (lib/platform/purpose.ts): urgent (results of settled
 * jobs), then normal (submits, polls, listings), then backlog (work for jobs found by reconciliation).
 * A caller takes a leased slot only while more slots are left than callers of higher ranks wait for,
 * and otherwise waits for the next lease like a caller that found none. So 200 submits queued in a
 * server do not hold up the result fetch of a job that settled meanwhile by their whole queue, and the
 * fetches of a 30,000-job backlog do not hold up a submit, only by the slots already leased to callers
 * (a lease and the one prefetched beside it: about one horizon, 1 s; test/budget-priority.test.ts).
 * Callers of one rank are not served in order of arrival (all that wait for a lease race for its
 * slots). Across processes the schedule stays first come, first served: a worker process's fetches
 * do not queue behind a server's submits anyway, they lease slots of their own.
 *
 * COST. One lease per lease size calls (1 below the budget, up to MAX_LEASE = half the horizon's
 * slots when saturated), plus one pause read per PAUSE_CACHE_MS when no lease refreshed it (in the
 * background: it never delays a call); one write per 429.
 * `npm run bench:budget` measures round trips per 100 calls and the added latency on both stores.
 */

export const LATE_MS = 50;
export const TRANSIT_MS = 100;
export const HORIZON_MS = 1000;
export const PAUSE_CACHE_MS = 250;

/** The most calls a second the budget lets out at `requestsPerSecond` (its slots' spacing): 87 % of it. */
export function budgetCallsPerSecond(requestsPerSecond: number): number {
  return (requestsPerSecond * 1000) / (1000 + LATE_MS + TRANSIT_MS);
}

export type SharedBudgetOptions = {
  key: string;
  requestsPerSecond: number;
  store?: BudgetStore;
  now?: () => number;
  sleep?: Sleep;
};

export type BudgetStats = { calls: number; leases: number; pauseReads: number; pauseWrites: number };

export class SharedBudget implements Limiter {
  readonly spacingUs: number;
  private readonly maxLease: number;
  private readonly store: BudgetStore;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private slots: number[] = [];
  private retryAt = 0;
  private leasing: Promise<void> | null = null;
  private waiting = 0;
  private pausedUntil = 0;
  private pauseReadAt = -Infinity;
  private pauseReading: Promise<void> | null = null;
  /** Callers that hold a slot and sleep until it. */
  private holding = 0;
  /** Callers that hold no slot yet, by rank (CALL_RANKS order): a caller leaves the slots to those of higher ranks. */
  private readonly needy = CALL_RANKS.map(() => 0);
  /** Adaptive lease size, and how the slots of the last lease fared. */
  private size = 1;
  private lastLease = { granted: 0, expired: 0 };
  readonly stats: BudgetStats = { calls: 0, leases: 0, pauseReads: 0, pauseWrites: 0 };

  constructor(private readonly opts: SharedBudgetOptions) {
    this.spacingUs = Math.ceil(1_000_000 / budgetCallsPerSecond(opts.requestsPerSecond));
    // Half the horizon's slots at most: two busy processes alternate leases instead of one hoarding.
    this.maxLease = Math.max(1, Math.floor((HORIZON_MS * 1000) / this.spacingUs / 2));
    this.store = opts.store ?? databaseBudgetStore;
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? realSleep;
  }

  pause(ms: number): void {
    const now = this.now();
    const until = now + ms;
    if (until <= this.pausedUntil) return;
    countRateLimitedMs(until - Math.max(this.pausedUntil, now));
    this.pausedUntil = until;
    this.slots = this.slots.filter((t) => t >= until);
    this.stats.pauseWrites++;
    // The caller is about to throw RateLimited and retry behind the local pause: the write need not
    // hold it up. A failed write leaves the others unpaused (they will meet their own 429s).
    this.store
      .writePause(this.opts.key, until)
      .catch((err) => log.warn("shared 429 pause not recorded", { error: String(err) }));
  }

  pausedForMs(): number {
    return Math.max(0, this.pausedUntil - this.now());
  }

  async acquire({ signal, deadline, rank = "normal" }: AcquireOptions = {}): Promise<void> {
    this.waiting++;
    const r = CALL_RANKS.indexOf(rank);
    // Whether this caller is counted in needy: from arrival until it holds a slot.
    let needy = true;
    const setNeedy = (v: boolean) => {
      if (v !== needy) this.needy[r] += v ? 1 : -1;
      needy = v;
    };
    this.needy[r]++;
    try {
      // Only the very first call waits for the pause to be read; later ones use the cached value and
      // refresh it in the background, so a read never makes a call miss its slot.
      if (this.pauseReadAt === -Infinity) await this.refreshPause();
      for (;;) {
        signal?.throwIfAborted();
        this.refreshPauseInBackground();
        const now = this.now();
        if (this.pausedUntil > now) {
          await this.wait(this.pausedUntil - now, now, deadline, signal);
          continue;
        }
        while (this.slots.length > 0 && this.slots[0] < now - LATE_MS) {
          this.slots.shift();
          this.lastLease.expired++;
        }
        // A caller leaves the slots to callers of higher ranks still without one.
        let ahead = 0;
        for (let i = 0; i < r; i++) ahead += this.needy[i];
        const mayTake = this.slots.length > ahead;
        const slot = mayTake ? this.slots.shift() : undefined;
        if (slot === undefined) {
          if (this.retryAt > now) await this.wait(this.retryAt - now, now, deadline, signal);
          else await this.lease();
          continue;
        }
        setNeedy(false);
        this.prefetch();
        if (slot > now) {
          if (deadline !== undefined && slot > deadline) {
            this.slots.unshift(slot);
            throw tooLong(slot - now);
          }
          this.holding++;
          try {
            await this.sleep(slot - now, signal);
          } finally {
            this.holding--;
          }
          const at = this.now();
          // Paused meanwhile, or sent too late to keep the spacing: this slot is lost, try again.
          if (this.pausedUntil > at) {
            setNeedy(true);
            continue;
          }
          if (at > slot + LATE_MS) {
            this.lastLease.expired++;
            setNeedy(true);
            continue;
          }
        }
        this.stats.calls++;
        return;
      }
    } finally {
      this.waiting--;
      setNeedy(false);
    }
  }

  /**
   * A saturated process (its last lease all used) leases the next slots as it takes its last one:
   * the lease's round trip then overlaps the wait instead of making the next call late.
   */
  private prefetch(): void {
    const saturated = this.lastLease.granted > 0 && this.lastLease.expired === 0;
    if (this.leasing || this.slots.length > 0 || !saturated || this.retryAt > this.now()) return;
    this.lease().catch((err) => log.warn("platform budget lease failed", { error: String(err) }));
  }

  private async wait(ms: number, now: number, deadline: number | undefined, signal: AbortSignal | undefined) {
    if (deadline !== undefined && now + ms > deadline) throw tooLong(ms);
    await this.sleep(Math.max(1, ms), signal);
  }

  /** One lease in flight per process; callers that arrive meanwhile share its slots. */
  private lease(): Promise<void> {
    this.leasing ??= (async () => {
      try {
        const now = this.now();
        if (this.lastLease.granted > 0) {
          this.size =
            this.lastLease.expired === 0
              ? Math.min(this.maxLease, this.size * 2)
              : Math.max(1, Math.floor(this.size / 2));
        }
        const needy = Math.max(0, this.waiting - this.holding);
        const wanted = Math.min(this.maxLease, Math.max(needy, this.size));
        this.stats.leases++;
        const got = await this.store.lease(this.opts.key, now, wanted, this.spacingUs, HORIZON_MS);
        this.slots.push(...got.slots);
        if (got.slots.length > 0) this.lastLease = { granted: got.slots.length, expired: 0 };
        this.retryAt = got.retryAt;
        this.notePause(got.pausedUntil);
      } finally {
        this.leasing = null;
      }
    })();
    return this.leasing;
  }

  private refreshPauseInBackground(): void {
    this.refreshPause().catch((err) => log.warn("shared 429 pause not read", { error: String(err) }));
  }

  private refreshPause(): Promise<void> {
    if (this.now() - this.pauseReadAt < PAUSE_CACHE_MS) return Promise.resolve();
    this.pauseReading ??= (async () => {
      try {
        this.stats.pauseReads++;
        this.notePause(await this.store.readPause(this.opts.key));
      } finally {
        this.pauseReading = null;
      }
    })();
    return this.pauseReading;
  }

  private notePause(until: number): void {
    this.pauseReadAt = this.now();
    if (until > this.pausedUntil) {
      this.pausedUntil = until;
      this.slots = this.slots.filter((t) => t >= until);
    }
  }
}

function tooLong(waitMs: number): RateLimited {
  return new RateLimited({
    status: 429,
    code: "RATE_LIMITED",
    message: `rate limited for ${Math.ceil(waitMs)} ms, beyond the caller's deadline`,
    retryAfterMs: Math.ceil(waitMs),
  });
}
