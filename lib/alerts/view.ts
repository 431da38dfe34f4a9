import "server-only";
import { type Role, roleAtLeast } from "../auth";
import { getConfig, type SecretView, type TallyConfig } from "../config";
import { db } from "../db";
import { channelTarget, configuredChannels } from "./channels";
import {
  CHANNELS,
  type AlertEventView,
  type AlertsView,
  type Channel,
  type ChannelView,
  type NotificationView,
  type RuleView,
} from "./contracts";
import { RULES } from "./rules";
import { silencedAt } from "./silence";

// The Alerts page and GET /api/alerts: rules with state and thresholds, channels with their health,
// and the latest firings with each channel's delivery result.

const HISTORY = 50;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export async function alertsView(role: Role = "viewer", now = new Date()): Promise<AlertsView> {
  const config = getConfig();
  const [states, events] = await Promise.all([
    db().alertState.findMany(),
    db().alertEvent.findMany({
      orderBy: { id: "desc" },
      take: HISTORY,
      include: { notifications: { orderBy: { id: "asc" } } },
    }),
  ]);
  const byRule = new Map(states.map((s) => [s.rule, s]));
  const rules: RuleView[] = RULES.map((r) => {
    const s = byRule.get(r.name);
    return {
      rule: r.name,
      description: r.description,
      state: s?.state === "firing" ? "firing" : "ok",
      since: iso(s?.since),
      summary: s?.summary ?? null,
      evaluatedAt: iso(s?.evaluatedAt),
      acknowledgedAt: s?.state === "firing" ? iso(s.acknowledgedAt) : null,
      acknowledgedBy: s?.state === "firing" ? (s.acknowledgedBy ?? null) : null,
      ...(silencedAt(s?.silencedUntil, now)
        ? {
            silencedUntil: iso(s?.silencedUntil),
            silencedBy: s?.silencedBy ?? null,
            silenceNote: s?.silenceNote ?? null,
          }
        : { silencedUntil: null, silencedBy: null, silenceNote: null }),
      thresholds: r.thresholds(config),
    };
  });
  const history: AlertEventView[] = events.map((e) => ({
    id: e.id,
    rule: e.rule,
    state: e.state === "resolved" ? "resolved" : "firing",
    kind: e.kind === "repeat" || e.kind === "test" ? e.kind : "alert",
    suppressed: e.suppressed === "silenced" ? "silenced" : null,
    summary: e.summary,
    startedAt: e.startedAt.toISOString(),
    at: e.at.toISOString(),
    notifications: e.notifications.map((n): NotificationView => ({
      channel: n.channel as Channel,
      status: (["pending", "retrying", "sent", "failed"] as const).find((s) => s === n.status) ?? "pending",
      attempts: n.attempts,
      lastStatusCode: n.lastStatusCode,
      lastError: n.lastError,
      sentAt: iso(n.sentAt),
      nextAttemptAt: iso(n.nextAttemptAt),
    })),
  }));
  return {
    evaluateEverySeconds: config.TALLY_ALERT_EVALUATE_SECONDS,
    repeatMinutes: config.TALLY_ALERT_REPEAT_MINUTES,
    rules,
    channels: await channelsView(config, roleAtLeast(role, "operator") ? "last4" : "hidden"),
    history,
  };
}

/** Each channel, configured or not, with its health: the last attempt that got an answer either way. */
export async function channelsView(
  config: TallyConfig = getConfig(),
  secrets: SecretView = "hidden",
): Promise<ChannelView[]> {
  const configured = new Set(configuredChannels(config));
  return Promise.all(
    CHANNELS.map(async (channel): Promise<ChannelView> => {
      const last = await db().alertNotification.findFirst({
        where: { channel, attempts: { gt: 0 } },
        orderBy: { updatedAt: "desc" },
        select: { status: true, lastError: true, updatedAt: true },
      });
      const failing = last !== null && last.status !== "sent";
      return {
        channel,
        configured: configured.has(channel),
        target: channelTarget(channel, config, secrets),
        signed: channel === "webhook" ? Boolean(config.TALLY_ALERT_WEBHOOK_SECRET) : null,
        health: last === null ? "unused" : failing ? "failing" : "ok",
        lastError: failing ? last.lastError : null,
        lastAttemptAt: iso(last?.updatedAt),
      };
    }),
  );
}
