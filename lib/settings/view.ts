import "server-only";
import { channelsView, type ChannelView } from "../alerts";
import { type Role, roleAtLeast } from "../auth";
import { describeConfig, getConfig, maskFor, redactUrlSecrets, type SecretView, type TallyConfig } from "../config";
import { db } from "../db";
import { TallyError } from "../errors";
import { readSimulatorKnobs, type SimulatorKnobs } from "../demo";
import { BODY_SWEEP_GRACE_MS, bodyCensus, type BodyCensusView } from "../bodies";

// The Settings page: the effective configuration with every secret masked, the running mode, and in
// demo mode the simulator's fault knobs. Nothing here may carry a whole secret to the browser; URLs
// never carry user info, passwords or query values; a viewer gets nothing of any secret (not a last 4).

export type SettingsView = {
  mode: "demo" | "live";
  deliveryMode: "webhooks" | "polling" | "both";
  webhookScheme: "hmac" | "standard";
  publicUrl: string;
  apiBaseUrl: string | null;
  settings: ReturnType<typeof describeConfig>;
  subscriptions: Array<{ id: string; eventType: string; secret: string; previousSecret: string }>;
  knobs: SimulatorKnobs | null;
  knobsError: string | null;
  /** The alert channels, targets masked (Slack's URL and SMTP passwords are secrets). */
  alertChannels: ChannelView[];
  /** Where page bodies are kept, how long, and what the last sweep counted there (null before the first). */
  bodyStore: {
    location: string;
    retentionDays: number;
    sweepGraceHours: number;
    census: BodyCensusView | null;
    /** Collections that keep the bodies of their last N runs only (keepBodiesRuns): the first 20, and how many. */
    collections: { count: number; first: Array<{ id: string; name: string; keepBodiesRuns: number }> };
  };
};

/** What a role may see of a secret: operators and admins its last 4 characters, viewers nothing. */
export function secretViewFor(role: Role): SecretView {
  return roleAtLeast(role, "operator") ? "last4" : "hidden";
}

export async function settingsView(config: TallyConfig = getConfig(), role: Role = "viewer"): Promise<SettingsView> {
  const secrets = secretViewFor(role);
  const [subscriptions, knobs, alertChannels, census, keeping] = await Promise.all([
    db().subscription.findMany({
      select: { id: true, eventType: true, secret: true, previousSecret: true },
      orderBy: [{ eventType: "asc" }, { id: "asc" }],
    }),
    config.mode === "demo" ? knobsOrReason(config) : Promise.resolve({ knobs: null, knobsError: null }),
    channelsView(config, secrets),
    bodyCensus(),
    collectionsKeepingRuns(),
  ]);
  return {
    mode: config.mode,
    deliveryMode: config.TALLY_DELIVERY_MODE,
    webhookScheme: config.TALLY_WEBHOOK_SCHEME,
    publicUrl: redactUrlSecrets(config.publicUrl),
    apiBaseUrl: config.apiBaseUrl ? redactUrlSecrets(config.apiBaseUrl) : null,
    settings: describeConfig(config, secrets),
    subscriptions: subscriptions.map((s) => ({
      id: s.id,
      eventType: s.eventType,
      secret: maskFor(s.secret, secrets),
      previousSecret: maskFor(s.previousSecret, secrets),
    })),
    ...knobs,
    alertChannels,
    bodyStore: {
      location: redactUrlSecrets(config.TALLY_BODY_STORE),
      retentionDays: config.TALLY_RESULT_RETENTION_DAYS,
      sweepGraceHours: BODY_SWEEP_GRACE_MS / 3_600_000,
      census,
      collections: keeping,
    },
  };
}

async function collectionsKeepingRuns(): Promise<SettingsView["bodyStore"]["collections"]> {
  const where = { keepBodiesRuns: { not: null } };
  const [count, rows] = await Promise.all([
    db().collection.count({ where }),
    db().collection.findMany({
      where,
      orderBy: [{ name: "asc" }, { id: "asc" }],
      take: 20,
      select: { id: true, name: true, keepBodiesRuns: true },
    }),
  ]);
  return { count, first: rows.map((r) => ({ id: r.id, name: r.name, keepBodiesRuns: r.keepBodiesRuns ?? 0 })) };
}

// The page still renders when the simulator is unreachable; it says why instead.
async function knobsOrReason(
  config: TallyConfig,
): Promise<{ knobs: SimulatorKnobs | null; knobsError: string | null }> {
  try {
    return { knobs: await readSimulatorKnobs(config), knobsError: null };
  } catch (err) {
    if (err instanceof TallyError) return { knobs: null, knobsError: err.message };
    throw err;
  }
}
