import "server-only";
import { getConfig, type TallyConfig } from "../config";
import { log } from "../log";
import { onServerStart } from "../runtime/boot";
import { pipelineRegistry } from "./kinds";
import { createWorker, type Worker } from "./worker";

// The in-server worker (TALLY_WORKER=on). `npm run worker` runs the same worker alone, for scaling out;
// several processes can run side by side because claims are safe across processes.

const holder = globalThis as unknown as { __tallyWorker?: Worker };

export function workerFor(config: TallyConfig): Worker {
  return createWorker({
    registry: pipelineRegistry,
    concurrency: config.TALLY_WORKER_CONCURRENCY,
    leaseMs: config.TALLY_LEASE_SECONDS * 1000,
    timeoutMs: config.TALLY_ITEM_TIMEOUT_SECONDS * 1000,
    // No platform yet (demo mode before its simulator listens): claiming would only burn attempts.
    paused: () => !getConfig().apiBaseUrl,
  });
}

/** Starts this process's worker once (modules load more than once under Next). */
export function startServerWorker(config: TallyConfig): Worker {
  if (holder.__tallyWorker) return holder.__tallyWorker;
  const worker = workerFor(config);
  holder.__tallyWorker = worker;
  worker.start();
  // Next exits soon after SIGTERM, so there is no time to finish items: stop claiming and release
  // the leases at once. Anything not released in time comes back when its lease expires.
  const stop = () => void worker.stop(0).catch((err) => log.error("worker stop failed", { error: String(err) }));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  return worker;
}

// Imported by lib/runtime/server-features.ts, which boot() loads before running the hooks.
onServerStart((config) => {
  if (config.TALLY_WORKER === "on") startServerWorker(config);
});
