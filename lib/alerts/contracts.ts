import { z } from "zod";

// The alerts' names and JSON shapes, shared by lib/alerts, the routes and the Alerts page.

export const RULE_NAMES = [
  "dead_letters",
  "unauthorized_spike",
  "subscription_drift",
  "stale_pending",
  "queue_stalled",
  "queue_bloat",
  "platform_errors",
  "safety_net_failed",
  "run_suspect_share",
  "run_token_cap",
  "body_store_unavailable",
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

export const ruleViewSchema = z.object({
  rule: z.enum(RULE_NAMES),
  description: z.string(),
  state: z.enum(["ok", "firing"]),
  since: z.string().nullable(),
  summary: z.string().nullable(),
  evaluatedAt: z.string().nullable(),
  /** Who acknowledged the current firing, and when (cleared when it resolves). */
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  /** A silence in force: nothing is sent until then. */
  silencedUntil: z.string().nullable(),
  silencedBy: z.string().nullable(),
  silenceNote: z.string().nullable(),
  thresholds: z.array(z.object({ setting: z.string(), value: z.string() })),
});
export type RuleView = z.infer<typeof ruleViewSchema>;

export const notificationViewSchema = z.object({
  channel: z.enum(CHANNELS),
  status: z.enum(["pending", "retrying", "sent", "failed"]),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type NotificationView = z.infer<typeof notificationViewSchema>;

export const alertEventViewSchema = z.object({
  id: z.number().int(),
  rule: z.string(),
  state: z.enum(["firing", "resolved"]),
  kind: z.enum(["alert", "repeat", "test"]),
  /** "silenced": recorded while a silence was in force, sent to no channel. */
  suppressed: z.enum(["silenced"]).nullable(),
  summary: z.string(),
  startedAt: z.string(),
  at: z.string(),
  notifications: z.array(notificationViewSchema),
});
export type AlertEventView = z.infer<typeof alertEventViewSchema>;

export const channelViewSchema = z.object({
  channel: z.enum(CHANNELS),
  configured: z.boolean(),
  /** Where it sends, secrets masked. */
  target: z.string(),
  signed: z.boolean().nullable(),
  health: z.enum(["ok", "failing", "unused"]),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
});
export type ChannelView = z.infer<typeof channelViewSchema>;

/** GET /api/alerts. */
export const alertsViewSchema = z.object({
  evaluateEverySeconds: z.number(),
  repeatMinutes: z.number(),
  rules: z.array(ruleViewSchema),
  channels: z.array(channelViewSchema),
  history: z.array(alertEventViewSchema),
});
export type AlertsView = z.infer<typeof alertsViewSchema>;

/** POST /api/alerts/test: what the channel said. */
export const testResultSchema = z.object({
  channel: channelSchema,
  ok: z.boolean(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type TestResult = z.infer<typeof testResultSchema>;

/** POST /api/alerts/{rule}/silence. */
export const silenceBodySchema = z
  .object({
    minutes: z
      .number({ error: "must be a number of minutes" })
      .int({ error: "must be a whole number of minutes" })
      .min(5, { error: "must be at least 5 minutes" })
      .max(7 * 24 * 60, { error: "must be at most 7 days (10080 minutes)" }),
    note: z.string().trim().max(200, { error: "must be at most 200 characters" }).nullish(),
  })
  .strict();

export const ackResultSchema = z.object({
  rule: z.enum(RULE_NAMES),
  acknowledgedAt: z.string(),
  acknowledgedBy: z.string(),
});
export const silenceResultSchema = z.object({
  rule: z.enum(RULE_NAMES),
  silencedUntil: z.string().nullable(),
  silencedBy: z.string().nullable(),
});
