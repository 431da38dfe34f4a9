import "server-only";
import type { TallyConfig } from "../config";
import { log } from "../log";
import { slot } from "../runtime";
import { claimTick, singleFlight } from "../scheduling";
import { runDueCollections } from "./start-run";

// The collections' schedule loop, started by lib/boot.ts (and `npm run worker`) with
// TALLY_SCHEDULER=on: every TALLY_COLLECTIONS_CHECK_MS one process, the winner of the "collections"
// tick (lib/scheduling), runs the pass. Each collection's tick is claimed again inside the pass, so even
// two passes at once start one run per tick. With TALLY_SCHEDULER=external, POST /api/cron/collections
// runs the same pass.

const running = slot<{ stop(): void }>("collections.schedule");

export function startCollectionSchedule(config: TallyConfig): { stop(): void } {
  const current = running.get();
  if (current) return current;
  const checkMs = config.TALLY_COLLECTIONS_CHECK_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    claimTick("collections", Math.max(50, checkMs - 50))
      .then((won) => (won ? runDueCollections() : undefined))
      .then((fired) => {
        for (const f of fired ?? []) log.info("collection tick", { ...f });
      })
      .catch((err) => log.warn("collections pass failed", { error: String(err) }))
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(tick, checkMs);
        timer.unref();
      });
  };
  // At start at once: a tick missed while Tally was down runs now (once).
  timer = setTimeout(tick, 0);
  timer.unref();
  const handle = {
    stop() {
      stopped = true;
      clearTimeout(timer);
      running.clear();
    },
  };
  running.set(handle);
  log.info("collections schedule started", { checkMs });
  return handle;
}

/** The external scheduler's unit (POST /api/cron/collections): one pass, single-flight (a second call at once gets 409). */
export function cronCollections() {
  return singleFlight("cron:collections", 10 * 60_000, async () => ({
    unit: "collections" as const,
    ticks: await runDueCollections(),
  }));
}
