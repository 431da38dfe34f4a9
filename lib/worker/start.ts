import "server-only";
import { getConfig, storeOf, type TallyConfig } from "../config";
import { listenForEnqueues } from "../queue";
import { log } from "../log";
import { onShutdown, shutdownIsManaged, singleton, slot } from "../runtime";
import { workerRegistry } from "./registry";
import { createWorker, type Worker, type WorkerOptions } from "./worker";

// The in-server worker (TALLY_WORKER=on). `npm run worker` runs the same worker alone, for scaling out;
// several processes can run side by side because claims are safe across processes.

const serverWorker = slot<Worker>("worker.inServer");

export function workerFor(config: TallyConfig, extra: Partial<WorkerOptions> = {}): Worker {
  return createWorker({
    ...extra,
    registry: workerRegistry,
    concurrency: config.TALLY_WORKER_CONCURRENCY,
    leaseMs: config.TALLY_LEASE_SECONDS * 1000,
    timeoutMs: config.TALLY_ITEM_TIMEOUT_SECONDS * 1000,
    // No platform yet (demo mode before its simulator listens): claiming would only burn attempts.
    paused: () => !getConfig().apiBaseUrl,
  });
}

/** On PostgreSQL, this process's workers wake on every enqueue anywhere (LISTEN/NOTIFY), once per process. */
export function listenForEnqueuesOnPostgres(config: TallyConfig): void {
  if (storeOf(config.DATABASE_URL) !== "postgres") return;
  singleton("queue.listener", () => listenForEnqueues(config.DATABASE_URL));
}

/** Starts this process's worker once (modules load more than once under Next). */
export function startServerWorker(config: TallyConfig): Worker {
  const running = serverWorker.get();
  if (running) return running;
  const worker = serverWorker.set(workerFor(config));
  listenForEnqueuesOnPostgres(config);
  worker.start();
  const stop = (graceMs: number) =>
    worker.stop(graceMs).catch((err) => log.error("worker stop failed", { error: String(err) }));
  if (shutdownIsManaged()) {
    // Tally's server waits for this: items in flight get time to finish (within TALLY_SHUTDOWN_GRACE_MS),
    // the rest are handed back.
    onShutdown((finishWithinMs) => stop(finishWithinMs));
  } else {
    // Plain `next start` exits soon after SIGTERM, so there is no time to finish items: stop claiming
    // and release the leases at once. Anything not released in time comes back when its lease expires.
    process.once("SIGTERM", () => void stop(0));
    process.once("SIGINT", () => void stop(0));
  }
  return worker;
}
