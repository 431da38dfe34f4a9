import "server-only";
import { randomUUID } from "node:crypto";
import { getConfig } from "../config";
import { db } from "../db";
import { Conflict, UpstreamFailure } from "../errors";
import { log } from "../log";
import { finishRun, keepAlive, startRun, waitForRun } from "../operations";
import { PlatformNotFound, PlatformError, type PlatformClient, type Webhook } from "../platform";
import { invalidateSecretCache, receiverUrl } from "../webhooks";
import { redact } from "./secrets";
import { EVENT_TYPES, getPlatformClient, withPurpose } from "../platform";

// One action registers the three subscriptions at Tally's receiver. Tally picks each subscription's
// key first (it is part of the receiver URL), then creates the webhook, then stores the secret the
// platform shows only in that answer. A subscription that exists but was paused or re-pointed is
// put back (PATCH url + is_active); one that vanished on the platform is registered again.

export type RegisterResult = { runId: string; registered: string[]; repaired: string[]; unchanged: string[] };

export async function registerSubscriptions(actor: string): Promise<RegisterResult> {
  const config = getConfig();
  if (config.mode === "live" && !config.TALLY_PUBLIC_URL) {
    throw new Conflict(
      "Set TALLY_PUBLIC_URL to the address where the platform can reach Tally before registering webhooks",
    );
  }
  const started = await startRun({ kind: "register", lockKey: "register", startedBy: actor });
  if (!started.created) {
    // Someone else is registering: their result is ours too.
    const run = await waitForRun(started.runId, { timeoutMs: 60_000 });
    if (run.state === "failed") throw new UpstreamFailure(run.error ?? "registration failed");
    const s = run.summary ?? {};
    const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
    return { runId: run.id, registered: list(s.registered), repaired: list(s.repaired), unchanged: list(s.unchanged) };
  }
  // Several platform calls, each up to its timeout: a heartbeat keeps the sweep of stopped runs away.
  const stopBeating = keepAlive(started.runId);
  try {
    const result = await withPurpose("register", () => register(getPlatformClient(), config.publicUrl));
    await finishRun(started.runId, { state: "succeeded", summary: result });
    return { runId: started.runId, ...result };
  } catch (err) {
    const message =
      err instanceof PlatformError ? platformMessage(err) : err instanceof Error ? err.message : String(err);
    await finishRun(started.runId, { state: "failed", error: message });
    throw err instanceof PlatformError ? new UpstreamFailure(message) : err;
  } finally {
    stopBeating();
  }
}

async function register(client: PlatformClient, publicUrl: string) {
  const hooks = new Map<string, Webhook>((await client.listWebhooks()).map((h) => [h.id, h]));
  const locals = await db().subscription.findMany({ orderBy: { createdAt: "asc" } });
  const registered: string[] = [];
  const repaired: string[] = [];
  const unchanged: string[] = [];
  for (const eventType of EVENT_TYPES) {
    const mine = locals.filter((s) => s.eventType === eventType);
    const live = mine.find((s) => s.platformId && hooks.has(s.platformId));
    if (live?.platformId) {
      const hook = hooks.get(live.platformId);
      const url = receiverUrl(live.id, publicUrl);
      if (hook && (!hook.is_active || hook.url !== url)) {
        await client.updateWebhook(live.platformId, { url, is_active: true });
        await db().subscription.update({ where: { id: live.id }, data: { url, isActive: true } });
        repaired.push(eventType);
      } else unchanged.push(eventType);
      continue;
    }
    // Reuse a local row whose webhook is gone (or was never created) so its key stays stable.
    const id = mine[0]?.id ?? randomUUID();
    const url = receiverUrl(id, publicUrl);
    const scheme = getConfig().TALLY_WEBHOOK_SCHEME;
    await db().subscription.upsert({
      where: { id },
      create: { id, eventType, url, scheme, isActive: true },
      update: { url, platformId: null, isActive: true, scheme },
    });
    const created = await client.createWebhook({ url, event_type: eventType, description: "Tally receiver" });
    try {
      await db().subscription.update({
        where: { id },
        data: {
          platformId: created.id,
          secret: created.secret,
          previousSecret: null,
          previousSecretExpiresAt: null,
          isActive: created.is_active,
          rotatedAt: null,
        },
      });
    } catch (err) {
      // Without the secret the webhook is useless and its secret is shown nowhere else: remove it.
      await client
        .deleteWebhook(created.id)
        .catch((e) => log.warn("orphan webhook not deleted", { webhookId: created.id, error: String(e) }));
      throw new Error(`storing the new webhook's secret failed: ${redact(err, created.secret)}`);
    }
    invalidateSecretCache();
    registered.push(eventType);
  }
  return { registered, repaired, unchanged };
}

function platformMessage(err: PlatformError): string {
  if (err instanceof PlatformNotFound)
    return "The platform has no webhook API here (404: the docs mark it 'coming soon'); use polling mode";
  return `The platform refused the registration: ${err.message}`;
}
