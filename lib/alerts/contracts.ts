import { z } from "zod";

// The alerts' names and JSON shapes, shared by lib/alerts, the routes and the Alerts page.

export const RULE_NAMES = [
  "dead_letters",
  "unauthorized_spike",
  "subscription_drift",
  "stale_pending",
  "queue_stalled",
  "platform_errors",
  "safety_net_failed",
] as const;
export type RuleName = (typeof RULE_NAMES)[number];

export const CHANNELS = ["webhook", "slack", "email"] as const;
export type Channel = (typeof CHANNELS)[number];
export const channelSchema = z.enum(CHANNELS, { error: 'must be "webhook", "slack" or "email"' });

/** What a channel receives (the generic webhook's JSON body, word for word). */
export type AlertMessage = {
  rule: string;
  state: "firing" | "resolved";
  summary: string;
  details: Record<string, unknown>;
  startedAt: string;
  url: string;
};

export type RuleView = {
  rule: RuleName;
  description: string;
  state: "ok" | "firing";
  since: string | null;
  summary: string | null;
  evaluatedAt: string | null;
  thresholds: Array<{ setting: string; value: string }>;
};

export type NotificationView = {
  channel: Channel;
  status: "pending" | "retrying" | "sent" | "failed";
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  sentAt: string | null;
  nextAttemptAt: string | null;
};

export type AlertEventView = {
  id: number;
  rule: string;
  state: "firing" | "resolved";
  kind: "alert" | "repeat" | "test";
  summary: string;
  startedAt: string;
  at: string;
  notifications: NotificationView[];
};

export type ChannelView = {
  channel: Channel;
  configured: boolean;
  /** Where it sends, secrets masked. */
  target: string;
  signed: boolean | null;
  health: "ok" | "failing" | "unused";
  lastError: string | null;
  lastAttemptAt: string | null;
};

export type AlertsView = {
  evaluateEverySeconds: number;
  repeatMinutes: number;
  rules: RuleView[];
  channels: ChannelView[];
  history: AlertEventView[];
};

/** POST /api/alerts/test: what the channel said. */
export const testResultSchema = z.object({
  channel: channelSchema,
  ok: z.boolean(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type TestResult = z.infer<typeof testResultSchema>;
