import "server-only";
import { getConfig } from "../config";
import { db } from "../db";
import { PlatformNotFound, PlatformError, type PlatformClient } from "../platform";
import { receiverUrl } from "../webhooks";
import { EVENT_TYPES } from "../platform";

// A deactivated or re-pointed webhook stops deliveries without a single error on our side, so
// reconciliation compares each subscription with the platform's copy and reports any difference.

export type DriftProblem =
  "no_subscription" | "not_registered" | "missing" | "inactive" | "url_mismatch" | "event_mismatch" | "check_failed";
export type Drift = {
  subscriptionId: string | null;
  eventType: string;
  webhookId: string | null;
  problem: DriftProblem;
  detail?: string;
};
export type DriftReport = { checked: number; ok: number; drift: Drift[] };

export async function checkSubscriptionDrift(client: PlatformClient): Promise<DriftReport> {
  const config = getConfig();
  const subs = await db().subscription.findMany({ orderBy: { createdAt: "asc" } });
  const drift: Drift[] = [];
  let ok = 0;
  if (config.TALLY_DELIVERY_MODE !== "polling") {
    for (const eventType of EVENT_TYPES) {
      if (!subs.some((s) => s.eventType === eventType))
        drift.push({ subscriptionId: null, eventType, webhookId: null, problem: "no_subscription" });
    }
  }
  for (const sub of subs) {
    const base = { subscriptionId: sub.id, eventType: sub.eventType, webhookId: sub.platformId };
    if (!sub.platformId) {
      drift.push({ ...base, problem: "not_registered" });
      continue;
    }
    try {
      const hook = await client.getWebhook(sub.platformId);
      const expected = receiverUrl(sub.id, config.publicUrl);
      const found: Drift[] = [];
      if (!hook.is_active) found.push({ ...base, problem: "inactive" });
      if (hook.url !== expected)
        found.push({ ...base, problem: "url_mismatch", detail: `points at ${hook.url}, expected ${expected}` });
      if (hook.event_type !== sub.eventType)
        found.push({ ...base, problem: "event_mismatch", detail: `platform says ${hook.event_type}` });
      if (found.length === 0) ok++;
      drift.push(...found);
      if (hook.is_active !== sub.isActive)
        await db().subscription.update({ where: { id: sub.id }, data: { isActive: hook.is_active } });
    } catch (err) {
      if (err instanceof PlatformNotFound)
        drift.push({ ...base, problem: "missing", detail: "the platform has no such webhook (404)" });
      else if (err instanceof PlatformError) drift.push({ ...base, problem: "check_failed", detail: err.message });
      else throw err;
    }
  }
  return { checked: subs.length, ok, drift };
}
