import "server-only";
import { getConfig, type TallyConfig } from "../config";
import { log } from "../log";
import { clearExpiredPreviousSecrets } from "../subscriptions";
import { recoverInterruptedRuns } from "./interrupted";
import { pollDueJobs, schedulePollsForSilentJobs, startReconcile } from "../safety-nets";
import { claimTick, PROCESS_TAG } from "../scheduling";
import { slot } from "../runtime";

// The safety nets' timers, started with the server and with `npm run worker` when TALLY_SCHEDULER=on.
// Scheduled units are single-flight across processes: each process checks often, and only the one
// that wins the schedule's "last run" row (lib/scheduling/lease.ts) runs the unit, so N processes run
// one reconciliation and one secret clean-up per interval, not N. A process-wide singleton, so each timer
// exists once per process.

const POLL_IDLE_MS = 500;
const SILENT_SCAN_MS = 5_000;
const CLEANUP_MS = 30_000;
const RECOVERY_MS = 5_000;
const POLL_BATCH = 20;

type Schedules = { stop(): void };
const running = slot<Schedules>("worker.schedules");

export function startSchedules(config: TallyConfig): Schedules {
  const current = running.get();
  if (current) return current;
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!stopped) fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  // One polling loop; a full batch means more is due, so it goes again at once. Deliberately NOT
  // single-flight: a due poll is claimed atomically by one process, so N loops make one platform call
  // per due job, not N (they share the due jobs, and the rate budget caps their sum); idle loops only
  // cost a cheap indexed query. Funnelling polls through one elected process every 500 ms would add a
  // lease write per tick and stall polling for a whole lease whenever that process dies.
  let lastSilentScan = 0;
  const pollTick = async () => {
    let again = false;
    try {
      if (getConfig().apiBaseUrl === undefined) return; // demo simulator not listening yet
      if (Date.now() - lastSilentScan >= SILENT_SCAN_MS && config.TALLY_DELIVERY_MODE !== "polling") {
        lastSilentScan = Date.now();
        await schedulePollsForSilentJobs();
      }
      const r = await pollDueJobs({ limit: POLL_BATCH });
      again = r.claimed === POLL_BATCH && !r.rateLimited;
    } catch (err) {
      // Nothing may kill the loop: a failed tick is logged and the next one comes as usual.
      log.warn("poll tick failed", { error: String(err) });
    } finally {
      later(again ? 0 : POLL_IDLE_MS, () => void pollTick());
    }
  };
  later(POLL_IDLE_MS, () => void pollTick());

  // A unit on a shared schedule: checked every checkMs, run only by the process that wins the tick.
  const shared = (name: string, intervalMs: number, unit: () => Promise<void>) => {
    const checkMs = Math.min(60_000, Math.max(250, Math.round(intervalMs / 10)));
    const tick = () => {
      claimTick(name, intervalMs)
        .then((won) => (won ? unit() : undefined))
        .catch((err) => log.warn("scheduled unit failed", { schedule: name, error: String(err) }))
        .finally(() => later(checkMs, tick));
    };
    later(checkMs, tick);
  };

  const minutes = config.TALLY_RECONCILE_INTERVAL_MINUTES;
  if (minutes > 0) {
    shared("reconcile", minutes * 60_000, async () => {
      const run = await startReconcile({}, `scheduler ${PROCESS_TAG}`);
      if (run.created) log.info("scheduled reconciliation started", { runId: run.runId });
    });
  }

  shared("interrupted-runs", RECOVERY_MS, async () => void (await recoverInterruptedRuns()));

  shared("secret-cleanup", CLEANUP_MS, async () => {
    const n = await clearExpiredPreviousSecrets();
    if (n > 0) log.info("expired previous secrets cleared", { subscriptions: n });
  });

  const schedules: Schedules = {
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      running.clear();
    },
  };
  running.set(schedules);
  log.info("safety-net schedules started", { reconcileEveryMinutes: minutes, delivery: config.TALLY_DELIVERY_MODE });
  return schedules;
}
