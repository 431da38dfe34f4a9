import "server-only";
import type { ChannelView } from "../alerts/contracts";
import { channelsView } from "../alerts/view";
import { describeConfig, getConfig, mask, type TallyConfig } from "../config";
import { db } from "../db";
import { TallyError } from "../errors";
import type { SimulatorKnobs } from "../demo/knobs-contracts";
import { readSimulatorKnobs } from "../demo/knobs";

// The Settings page: the effective configuration with every secret masked, the running mode, and in
// demo mode the simulator's fault knobs. Nothing here may carry a whole secret to the browser.

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
};

export async function settingsView(config = getConfig()): Promise<SettingsView> {
  const [subscriptions, knobs, alertChannels] = await Promise.all([
    db().subscription.findMany({
      select: { id: true, eventType: true, secret: true, previousSecret: true },
      orderBy: [{ eventType: "asc" }, { id: "asc" }],
    }),
    config.mode === "demo" ? knobsOrReason(config) : Promise.resolve({ knobs: null, knobsError: null }),
    channelsView(),
  ]);
  return {
    mode: config.mode,
    deliveryMode: config.TALLY_DELIVERY_MODE,
    webhookScheme: config.TALLY_WEBHOOK_SCHEME,
    publicUrl: config.publicUrl,
    apiBaseUrl: config.apiBaseUrl ?? null,
    settings: describeConfig(config),
    subscriptions: subscriptions.map((s) => ({
      id: s.id,
      eventType: s.eventType,
      secret: mask(s.secret),
      previousSecret: mask(s.previousSecret),
    })),
    ...knobs,
    alertChannels,
  };
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
