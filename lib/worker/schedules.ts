import "server-only";
import { getConfig, type TallyConfig } from "../config";
import { log } from "../log";
import { clearExpiredPreviousSecrets } from "../subscriptions/secrets";
import { pollDueJobs, schedulePollsForSilentJobs } from "../safety-nets/poller";
import { startReconcile } from "../safety-nets/reconcile";

// The safety nets' timers, started with the server and with `npm run worker`. Each is safe to run
// in several processes: reconcile is single-flight by its lock key, poll claims are atomic, and the
// secret cleanup is one idempotent UPDATE. Kept on globalThis so each timer exists once per process.

const POLL_IDLE_MS = 500;
const SILENT_SCAN_MS = 5_000;
const CLEANUP_MS = 30_000;
const POLL_BATCH = 20;

type Schedules = { stop(): void };
const holder = globalThis as unknown as { __tallySchedules?: Schedules };

export function startSchedules(config: TallyConfig): Schedules {
  if (holder.__tallySchedules) return holder.__tallySchedules;
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

  // One polling loop; a full batch means more is due, so it goes again at once.
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

  const minutes = config.TALLY_RECONCILE_INTERVAL_MINUTES;
  if (minutes > 0) {
    const reconcileTick = () => {
      startReconcile({}, "scheduler")
        .then((run) => run.created && log.info("scheduled reconciliation started", { runId: run.runId }))
        .catch((err) => log.warn("scheduled reconciliation could not start", { error: String(err) }))
        .finally(() => later(minutes * 60_000, reconcileTick));
    };
    later(minutes * 60_000, reconcileTick);
  }

  const cleanupTick = () => {
    clearExpiredPreviousSecrets()
      .then((n) => n > 0 && log.info("expired previous secrets cleared", { subscriptions: n }))
      .catch((err) => log.warn("previous secret cleanup failed", { error: String(err) }))
      .finally(() => later(CLEANUP_MS, cleanupTick));
  };
  later(CLEANUP_MS, cleanupTick);

  const schedules: Schedules = {
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      holder.__tallySchedules = undefined;
    },
  };
  holder.__tallySchedules = schedules;
  log.info("safety-net schedules started", { reconcileEveryMinutes: minutes, delivery: config.TALLY_DELIVERY_MODE });
  return schedules;
}
