import "server-only";
import { getConfig, type TallyConfig } from "../config";
import { db } from "../db";
import { log } from "../log";
import { singleFlight } from "../scheduling";
import { sendToChannel, type Attempt } from "./channels";
import type { AlertMessage, Channel } from "./contracts";
import { RULES } from "./rules";

// Sends the alerts' outbox: due notifications, one attempt each, in parallel, bounded by the
// channels' 10 s timeout. A failure is retried with exponential backoff (10 s, 20 s, … capped at
// 15 min) up to MAX_ATTEMPTS, then the notification is "failed" and the channel shows as failing on
// the Alerts page. Runs beside the job pipeline, never in it: a dead SMTP server slows no job, and an
// alert about a stalled queue does not wait in that queue.

export const MAX_ATTEMPTS = 8;
const RETRY_BASE_MS = 10_000;
const RETRY_CAP_MS = 15 * 60_000;
const BATCH = 20;

export function retryDelayMs(attempt: number): number {
  return Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1));
}

type EventRow = { id: number; rule: string; state: string; summary: string; details: string; startedAt: Date };

export function messageFor(e: EventRow, config: TallyConfig): AlertMessage {
  const page = RULES.find((r) => r.name === e.rule)?.page ?? "/alerts";
  let details: Record<string, unknown> = {};
  try {
    details = JSON.parse(e.details) as Record<string, unknown>;
  } catch {
    details = {};
  }
  return {
    rule: e.rule,
    state: e.state === "resolved" ? "resolved" : "firing",
    summary: e.summary,
    details,
    startedAt: e.startedAt.toISOString(),
    url: `${config.publicUrl}${page}`,
  };
}

/** The webhook-id of an event: one per event, the same for every attempt and channel. */
export const alertMessageId = (eventId: number) => `msg_alert_${eventId}`;

export type DeliverOptions = { now?: Date; config?: TallyConfig; signal?: AbortSignal };
export type DeliverResult = { attempted: number; sent: number; failed: number; retrying: number };

export function deliverAlertNotifications(opts: DeliverOptions = {}): Promise<DeliverResult> {
  return singleFlight("alerts:deliver", 5 * 60_000, () => deliverOnce(opts));
}

async function deliverOnce(opts: DeliverOptions): Promise<DeliverResult> {
  const config = opts.config ?? getConfig();
  const now = opts.now ?? new Date();
  const due = await db().alertNotification.findMany({
    where: { status: { in: ["pending", "retrying"] }, nextAttemptAt: { lte: now } },
    orderBy: { id: "asc" },
    take: BATCH,
    include: { event: true },
  });
  const result: DeliverResult = { attempted: due.length, sent: 0, failed: 0, retrying: 0 };
  const signal = opts.signal ?? new AbortController().signal;
  await Promise.all(
    due.map(async (n) => {
      const attempt = await sendToChannel(
        n.channel as Channel,
        messageFor(n.event, config),
        alertMessageId(n.eventId),
        config,
        signal,
        now.getTime(),
      );
      const status = await record(n.id, n.attempts + 1, attempt, now);
      result[status === "sent" ? "sent" : status === "failed" ? "failed" : "retrying"]++;
      if (status !== "sent")
        log.warn("alert notification not delivered", {
          channel: n.channel,
          rule: n.event.rule,
          attempt: n.attempts + 1,
          status,
          error: attempt.error,
        });
    }),
  );
  return result;
}

async function record(id: number, attempts: number, a: Attempt, now: Date): Promise<"sent" | "retrying" | "failed"> {
  const status = a.ok ? "sent" : attempts >= MAX_ATTEMPTS ? "failed" : "retrying";
  await db().alertNotification.update({
    where: { id },
    data: {
      status,
      attempts,
      lastStatusCode: a.statusCode,
      lastError: a.ok ? null : a.error,
      sentAt: a.ok ? now : null,
      nextAttemptAt: status === "retrying" ? new Date(now.getTime() + retryDelayMs(attempts)) : null,
    },
  });
  return status;
}
