import "server-only";
import { getConfig } from "../config";
import { db } from "../db";
import { Conflict } from "../errors";
import { audited } from "../audit";
import { configuredChannels, sendToChannel } from "./channels";
import type { Channel, TestResult } from "./contracts";
import { alertMessageId, messageFor } from "./deliver";
import { recordEvent } from "./evaluate";

// "Send test alert": one message to one channel now, while the operator waits, recorded in the
// history like any other (kind "test") with its result. No retries: the operator sees the answer.

export function sendTestAlert(channel: Channel, actor: string): Promise<TestResult> {
  return audited(
    { actor, action: "alerts.test", target: channel },
    () => send(channel, actor),
    (r) => ({ statusCode: r.statusCode }),
    (r) => r.ok,
  );
}

async function send(channel: Channel, actor: string): Promise<TestResult> {
  const config = getConfig();
  if (!configuredChannels(config).includes(channel))
    throw new Conflict(
      `The ${channel} channel is not configured (see the alert channel settings in docs/configuration.md)`,
    );
  const now = new Date();
  const event = {
    rule: "test",
    state: "firing" as const,
    kind: "test" as const,
    summary: `Test alert from Tally, sent by ${actor}: if you can read this, the ${channel} channel works`,
    details: JSON.stringify({ test: true, channel, sentBy: actor }),
    startedAt: now,
    at: now,
  };
  const eventId = await db().$transaction((tx) => recordEvent(tx, config, event, []));
  const attempt = await sendToChannel(
    channel,
    messageFor({ id: eventId, ...event }, config),
    alertMessageId(eventId),
    config,
    AbortSignal.timeout(15_000),
  );
  await db().alertNotification.create({
    data: {
      eventId,
      channel,
      status: attempt.ok ? "sent" : "failed",
      attempts: 1,
      lastStatusCode: attempt.statusCode,
      lastError: attempt.error,
      sentAt: attempt.ok ? now : null,
    },
  });
  return { channel, ok: attempt.ok, statusCode: attempt.statusCode, error: attempt.error };
}
