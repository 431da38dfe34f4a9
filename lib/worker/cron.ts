import "server-only";
import { getConfig } from "../config";
import { Conflict, UpstreamFailure } from "../errors";
import type { ItemOutcome } from "../queue";
import { pruneHistory } from "./retention";
import { pollDueJobs, schedulePollsForSilentJobs, startReconcile } from "../safety-nets";
import { singleFlight } from "../scheduling";
import { clearExpiredPreviousSecrets } from "../subscriptions";
import { recoverInterruptedRuns } from "./interrupted";
import { workerFor } from "./start";

// The units an external scheduler runs through POST /api/cron/* (TALLY_SCHEDULER=external): each is
// bounded, single-flight across processes (a second concurrent call gets Conflict → 409 and does
// nothing), idempotent (claims, dedupe keys and conditional updates make a repeat harmless), and
// returns what it did.

const POLL_BATCH = 20;
const POLL_MAX_BATCHES = 50;

function needPlatform(): void {
  if (!getConfig().apiBaseUrl) throw new UpstreamFailure("No platform to talk to yet (demo simulator not started)");
}

/**
 * Schedules polls for jobs without a webhook, then polls what is due, up to 50 batches of 20; first,
 * the runs whose process stopped are ended (a rotation's lost secret found again).
 */
export function cronPoll() {
  return singleFlight("cron:poll", 5 * 60_000, async () => {
    needPlatform();
    const interrupted = await recoverInterruptedRuns();
    const silentScheduled = getConfig().TALLY_DELIVERY_MODE !== "polling" ? await schedulePollsForSilentJobs() : 0;
    let claimed = 0;
    let batches = 0;
    let rateLimited = false;
    while (batches < POLL_MAX_BATCHES) {
      const r = await pollDueJobs({ limit: POLL_BATCH });
      batches++;
      claimed += r.claimed;
      rateLimited = r.rateLimited;
      if (r.claimed < POLL_BATCH || r.rateLimited) break;
    }
    return { unit: "poll", silentScheduled, polled: claimed, batches, rateLimited, ...interrupted };
  });
}

export type WorkResult = {
  unit: "work";
  maxSeconds: number;
  handled: number;
  outcomes: Partial<Record<ItemOutcome, number>>;
  drained: boolean;
  seconds: number;
};

/** Runs the queue worker until nothing is due (drained) or maxSeconds pass; items still running then are handed back. */
export function cronWork(maxSeconds: number): Promise<WorkResult> {
  return singleFlight("cron:work", (maxSeconds + 60) * 1000, async () => {
    needPlatform();
    const started = Date.now();
    const outcomes: Partial<Record<ItemOutcome, number>> = {};
    const worker = workerFor(getConfig(), { onOutcome: (_item, o) => void (outcomes[o] = (outcomes[o] ?? 0) + 1) });
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      worker.drain().then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), maxSeconds * 1000))),
    ]);
    clearTimeout(timer);
    // At the deadline: stop claiming and release what is in flight at once (its attempt is given back).
    await worker.stop(0);
    const handled = Object.values(outcomes).reduce((a, b) => a + b, 0);
    return {
      unit: "work",
      maxSeconds,
      handled,
      outcomes,
      drained,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  });
}

/** One reconciliation, followed to its end; Conflict if one (from any process or the dashboard) is running. */
export async function cronReconcile() {
  needPlatform();
  const run = await startReconcile({}, "cron");
  if (!run.created)
    throw new Conflict(`a reconciliation is already running (run ${run.runId}); this call did nothing`, {
      runId: run.runId,
    });
  const done = await run.done;
  return { unit: "reconcile", runId: run.runId, state: done.state, summary: done.summary, error: done.error };
}

/** One retention pass (rows past their retention deleted in batches) and the expired-secret clean-up. */
export function cronRetention() {
  return singleFlight("cron:retention", 30 * 60_000, async () => {
    const deleted = await pruneHistory();
    const previousSecretsCleared = await clearExpiredPreviousSecrets();
    return { unit: "retention", deleted, previousSecretsCleared };
  });
}
