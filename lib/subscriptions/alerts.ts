import "server-only";
import type { TallyConfig } from "../config";
import { db } from "../db";
import type { SubscriptionAlert } from "./contracts";

// Webhooks that cannot reach Tally lose nothing (reconciliation catches up) but delay everything:
// the overview says so when an event type has no active subscription pointed at our receiver.

import { EVENT_TYPES } from "../platform";

export type { SubscriptionAlert } from "./contracts";

export async function subscriptionAlerts(config: TallyConfig): Promise<SubscriptionAlert[]> {
  if (config.TALLY_DELIVERY_MODE === "polling") return [];
  const subs = await db().subscription.findMany({ select: { eventType: true, url: true, isActive: true } });
  const receiver = `${config.publicUrl}/webhooks/geonode`;
  const ours = (url: string) => url === receiver || url.startsWith(`${receiver}/`);
  const alerts: SubscriptionAlert[] = [];
  for (const eventType of EVENT_TYPES) {
    const mine = subs.filter((s) => s.eventType === eventType);
    if (mine.some((s) => s.isActive && ours(s.url))) continue;
    if (mine.length === 0) {
      alerts.push({
        eventType,
        problem: "missing",
        message: `No subscription for ${eventType}: these jobs are found only by polling or reconciliation.`,
      });
    } else if (!mine.some((s) => s.isActive)) {
      alerts.push({
        eventType,
        problem: "inactive",
        message: `The subscription for ${eventType} is inactive: the platform sends nothing.`,
      });
    } else {
      const where = mine.find((s) => s.isActive)?.url ?? "";
      alerts.push({
        eventType,
        problem: "elsewhere",
        message: `The subscription for ${eventType} points to ${where}, not to this Tally (${receiver}).`,
      });
    }
  }
  return alerts;
}
