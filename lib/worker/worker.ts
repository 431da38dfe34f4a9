import "server-only";
import { setMaxListeners } from "node:events";
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { log } from "../log";
import { claim, createAckBatch, release, runItem, type ClaimedItem, type ItemOutcome, type Registry } from "../queue";
import { flushApiCalls } from "../platform";
import { onQueueWake } from "../queue";

const EXPIRED_EVERY_MS = 1000;

export type WorkerOptions = {
  registry: Registry;
  concurrency: number;
  /** How long a claim holds without renewal; renewed while an item runs, so a crashed worker's items return within it. */
  leaseMs: number;
  /** Per item: a handler still running after this long is aborted and retried later. Default 10 minutes. */
  timeoutMs?: number;
  /** How long to sleep when the queue has nothing due. */
  idleMs?: number;
  owner?: string;
  /** While true, claim nothing (e.g. demo mode before the simulator has started). */
  paused?: () => boolean;
  onOutcome?: (item: ClaimedItem, outcome: ItemOutcome) => void;
};

export type Worker = {
  readonly owner: string;
  start(): void;
  /** Stop claiming; wait up to graceMs for items in flight, then abort them and release their leases. */
  stop(graceMs?: number): Promise<void>;
  /** For tests and scripts: run until nothing is due and nothing is in flight. */
  drain(): Promise<void>;
  inFlight(): number;
};

export function createWorker(opts: WorkerOptions): Worker {
  const owner = opts.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 6)}`;
  const timeoutMs = opts.timeoutMs ?? 600_000;
  const idleMs = opts.idleMs ?? 500;
  const shutdown = new AbortController();
  // Each item in flight listens on it (lib/queue/run-item.ts): Node's default of 10 would warn of a leak.
  setMaxListeners(opts.concurrency + 10, shutdown.signal);
  const running = new Map<number, Promise<void>>();
  let loop: Promise<void> | null = null;
  let stopping = false;
  let wake: (() => void) | null = null;
  // Set by every nudge, cleared before each claim: a nudge that comes while a claim is in flight (an
  // enqueue committed just after the claim's snapshot, a slot freed meanwhile) makes the loop claim
  // again instead of sleeping through it.
  let nudged = false;
  const nudge = () => {
    nudged = true;
    wake?.();
  };
  const acks = createAckBatch();
  let expiredLookedAt = -Infinity;
  let unsubscribe = () => {};

  function launch(item: ClaimedItem) {
    const task = runItem(opts.registry, item, {
      timeoutMs,
      heartbeat: { leaseMs: opts.leaseMs },
      signal: shutdown.signal,
      onAbortedByShutdown: (i) => release(i),
      ack: acks.ack,
    })
      .then((outcome) => opts.onOutcome?.(item, outcome))
      .catch((err) =>
        log.error("queue item could not be settled; its lease will expire", { id: item.id, error: String(err) }),
      )
      .finally(() => {
        running.delete(item.id);
        nudge();
      });
    running.set(item.id, task);
  }

  /** Expired leases (a worker that died) at most once a second: they come back a lease late anyway. */
  function timeForExpired(): boolean {
    if (Date.now() - expiredLookedAt < EXPIRED_EVERY_MS) return false;
    expiredLookedAt = Date.now();
    return true;
  }

  /** One claim for the free slots; the number of items taken. */
  async function fill(alwaysExpired = false): Promise<number> {
    const free = opts.concurrency - running.size;
    if (free <= 0 || stopping || opts.paused?.()) return 0;
    const expired = alwaysExpired || timeForExpired();
    const items = await claim({ owner, limit: free, leaseMs: opts.leaseMs, expired });
    for (const item of items) launch(item);
    return items.length;
  }

  async function run() {
    while (!stopping) {
      // A turn of the event loop before each claim. On SQLite a statement answers as a promise that
      // never leaves the microtask queue, so items that fail at once (a sink whose client is
      // reconnecting) could keep this loop going without ever letting timers and sockets run: the
      // very reconnect they wait for (seen in lib/outbound/sinks/brokers.test.ts on a loaded machine).
      await new Promise((resolve) => setImmediate(resolve));
      let took = 0;
      let failed = false;
      nudged = false;
      try {
        took = await fill();
      } catch (err) {
        failed = true;
        log.warn("queue claim failed; trying again", { error: String(err) });
      }
      if (stopping) break;
      // Full, or nothing due: sleep until a slot frees, the idle time passes, or stop() is called.
      if ((took === 0 && (!nudged || failed)) || running.size >= opts.concurrency) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, running.size >= opts.concurrency ? 60_000 : idleMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    }
  }

  return {
    owner,
    inFlight: () => running.size,
    start() {
      if (loop) return;
      unsubscribe = onQueueWake(nudge);
      log.info("worker started", { owner, concurrency: opts.concurrency });
      loop = run();
    },
    async stop(graceMs = 10_000) {
      stopping = true;
      unsubscribe();
      nudge();
      await loop;
      const all = Promise.all(running.values());
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        all.then(() => false),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs))),
      ]);
      clearTimeout(timer);
      if (timedOut) {
        shutdown.abort(new Error("worker shutting down"));
        await all;
      }
      await flushApiCalls().catch((err) => log.warn("api call counts not saved", { error: String(err) }));
      log.info("worker stopped", { owner, released: timedOut });
    },
    async drain() {
      for (;;) {
        const took = await fill(true);
        if (took === 0 && running.size === 0) return;
        if (took === 0) await Promise.race(running.values());
      }
    },
  };
}
