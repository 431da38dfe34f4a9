import "server-only";
import type { TallyConfig } from "../config";
import { Conflict } from "../errors";
import { log } from "../log";
import { claimTick } from "../scheduling";
import { deliverAlertNotifications, type DeliverResult } from "./deliver";
import { evaluateAlerts, type Transition } from "./evaluate";
import { slot } from "../runtime";

// The alert schedule: every TALLY_ALERT_EVALUATE_SECONDS (at most 30) one process, the winner of the
// "alerts" tick, evaluates the rules and sends what is due. Started by lib/boot.ts with
// TALLY_SCHEDULER=on; with TALLY_SCHEDULER=external, POST /api/cron/alerts runs the same pass.

export type AlertPass = { unit: "alerts"; transitions: Transition[]; notifications: DeliverResult };

/** Evaluate, then send: one pass (single-flight in each half). */
export async function runAlertPass(): Promise<AlertPass> {
  const transitions = await evaluateAlerts();
  const notifications = await deliverAlertNotifications();
  return { unit: "alerts", transitions: transitions.filter((t) => t.event !== null), notifications };
}

const running = slot<{ stop(): void }>("alerts.schedule");

export function startAlerts(config: TallyConfig): { stop(): void } {
  const current = running.get();
  if (current) return current;
  const intervalMs = config.TALLY_ALERT_EVALUATE_SECONDS * 1000;
  // Checked several times per interval so a tick is never late by more than a fraction of it.
  const checkMs = Math.max(250, Math.round(intervalMs / 5));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    claimTick("alerts", intervalMs - checkMs / 2)
      .then((won) => (won ? runAlertPass() : undefined))
      .catch((err) => {
        if (!(err instanceof Conflict)) log.warn("alert pass failed", { error: String(err) });
      })
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(tick, checkMs);
        timer.unref();
      });
  };
  timer = setTimeout(tick, checkMs);
  timer.unref();
  const handle = {
    stop() {
      stopped = true;
      clearTimeout(timer);
      running.clear();
    },
  };
  running.set(handle);
  log.info("alert schedule started", { everySeconds: config.TALLY_ALERT_EVALUATE_SECONDS });
  return handle;
}
