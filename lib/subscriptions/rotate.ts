import "server-only";
import { getConfig } from "../config";
import { db } from "../db";
import { Conflict, NotFound, UpstreamFailure } from "../errors";
import {
  finishRun,
  keepAlive,
  runInBackground,
  RunFailed,
  startRun,
  waitForRun,
  type Json,
  type RunView,
} from "../operations";
import { Network, PlatformNotFound, PlatformError, Timeout, Upstream } from "../platform";
import { redact, storeNewSecret, type SecretSource } from "./secrets";
import { getPlatformClient } from "../platform";
import { startReplay } from "../safety-nets";

// Rotation that heals itself: rotate on the platform, store the new secret where the receiver reads
// it (old one kept as "previous" briefly), then after a settle delay replay the deliveries the
// platform signed with the new secret before we stored it: they got 401 and would be lost otherwise.

/** Platform and Tally clocks differ a little; replaying a few seconds too much costs nothing. */
export const CLOCK_MARGIN_MS = 5_000;

export type RotateResult =
  | { stored: true; runId: string; created: true; secret: string; done: Promise<RunView> }
  | { stored: true; runId: string; created: false; done: Promise<RunView> }
  | { stored: false; runId: string; secret: string; message: string };

const last4 = (s: string) => (s.length > 8 ? s.slice(-4) : "");

async function findSubscription(id: string) {
  const sub = await db().subscription.findUnique({
    where: { id },
    select: { id: true, platformId: true, eventType: true },
  });
  if (!sub) throw new NotFound(`No subscription ${id}`);
  return sub;
}

/**
 * A rotation beats its heart from its first step (the platform call included), so one silent this
 * long stopped with its process; lib/subscriptions/recover.ts then finishes it.
 */
export const ROTATE_STALE_AFTER_MS = 15_000;
/** How often a subscription whose secret is in doubt is rotated again (lib/subscriptions/recover.ts). */
export const RETRY_IN_DOUBT_MS = 30_000;
/** A failed rotation's summary when the platform may have rotated without Tally learning the secret. */
export const IN_DOUBT = { secretInDoubt: true };
/** Asks for a new secret at most this many times when the platform's answer is lost. */
const ROTATE_ATTEMPTS = 3;

export async function rotateSubscriptionSecret(
  subscriptionId: string,
  actor: string,
  opts: { recovers?: string } = {},
): Promise<RotateResult> {
  const sub = await findSubscription(subscriptionId);
  if (!sub.platformId)
    throw new Conflict(`Subscription ${sub.id} is not registered on the platform; register it first`);
  const started = await startRun({
    kind: "rotate",
    lockKey: `rotate:${sub.id}`,
    params: { subscriptionId: sub.id, source: "rotated", ...(opts.recovers ? { recovers: opts.recovers } : {}) },
    startedBy: actor,
    staleAfterMs: ROTATE_STALE_AFTER_MS,
  });
  if (!started.created) return { stored: true, runId: started.runId, created: false, done: waitForRun(started.runId) };
  const runId = started.runId;
  const stopBeating = keepAlive(runId);

  let secret: string;
  const rotationStart = new Date();
  let replayFrom = rotationStart;
  try {
    // 401s already piling up (a rotation before this one whose secret was lost) are replayed too.
    const spike = await findSpikeStart(sub.id);
    if (spike && spike < replayFrom) replayFrom = spike;
    try {
      secret = await rotateOnPlatform(sub.platformId);
    } catch (err) {
      const message = platformMessage(err, sub.platformId);
      // An answer lost every time: lib/subscriptions/recover.ts rotates again until one arrives.
      await finishRun(runId, { state: "failed", error: message, summary: answerLost(err) ? IN_DOUBT : undefined });
      throw new UpstreamFailure(message);
    }

    try {
      await storeNewSecret({ subscriptionId: sub.id, secret, source: "rotated", actor, runId, at: rotationStart });
    } catch (err) {
      // Taken for dead meanwhile: the recovery rotates again, and its secret is the one to keep.
      if (err instanceof Conflict) throw err;
      // The platform shows a new secret only once: hand it to the operator (never to a log).
      const message = `The platform rotated the secret but Tally could not store it (${redact(err, secret)}). Enter it by hand with POST /api/subscriptions/${sub.id}/secret; until then deliveries fail with 401.`;
      await finishRun(runId, { state: "failed", error: message });
      return { stored: false, runId, secret, message };
    }
  } finally {
    stopBeating();
  }
  const done = runInBackground(runId, (ctx) =>
    settleThenReplay(ctx.runId, ctx.progress, {
      subscriptionId: sub.id,
      source: "rotated",
      since: replayFrom,
      secretLast4: last4(secret),
      actor,
    }),
  );
  return { stored: true, runId, created: true, secret, done };
}

/**
 * The platform's new secret. An answer lost on the way (a 5xx, a timeout, a dropped connection) leaves
 * unknown whether the platform rotated, and if it did, it now signs with a secret nobody has: ask
 * again. A rotation repeated is still a rotation, and the answer that arrives names the secret in use.
 */
async function rotateOnPlatform(platformId: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await getPlatformClient().rotateWebhookSecret(platformId, { purpose: "rotate" })).secret;
    } catch (err) {
      if (!answerLost(err) || attempt >= ROTATE_ATTEMPTS) throw err;
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
}

const answerLost = (err: unknown) => err instanceof Upstream || err instanceof Network || err instanceof Timeout;

/** A secret rotated on the platform's own dashboard: store it, then replay the 401s since the spike began. */
export async function setSecretFromElsewhere(
  subscriptionId: string,
  secret: string,
  actor: string,
): Promise<{ runId: string; done: Promise<RunView> }> {
  const sub = await findSubscription(subscriptionId);
  const started = await startRun({
    kind: "rotate",
    lockKey: `rotate:${sub.id}`,
    params: { subscriptionId: sub.id, source: "set_elsewhere" },
    startedBy: actor,
    staleAfterMs: ROTATE_STALE_AFTER_MS,
  });
  if (!started.created)
    throw new Conflict(
      `A rotation of subscription ${sub.id} is running (run ${started.runId}); try again when it ends`,
      { runId: started.runId },
    );
  const runId = started.runId;
  try {
    const spike = await findSpikeStart(sub.id);
    await storeNewSecret({ subscriptionId: sub.id, secret, source: "set_elsewhere", actor, runId });
    const done = runInBackground(runId, (ctx) =>
      spike
        ? settleThenReplay(runId, ctx.progress, {
            subscriptionId: sub.id,
            source: "set_elsewhere",
            since: spike,
            secretLast4: last4(secret),
            actor,
            settle: false,
          })
        : Promise.resolve({
            source: "set_elsewhere",
            secretLast4: last4(secret),
            replay: null,
            note: "no 401 since the last successful delivery: nothing to replay",
          }),
    );
    return { runId, done };
  } catch (err) {
    const message = `storing the secret failed: ${redact(err, secret)}`;
    await finishRun(runId, { state: "failed", error: message });
    throw new Error(message);
  }
}

/** Dashboard button: replay this subscription's 401s since its last rotation (or since the spike began). */
export async function replay401sSinceRotation(subscriptionId: string, actor: string) {
  const sub = await db().subscription.findUnique({
    where: { id: subscriptionId },
    select: { id: true, rotatedAt: true },
  });
  if (!sub) throw new NotFound(`No subscription ${subscriptionId}`);
  const since = sub.rotatedAt ?? (await findSpikeStart(sub.id));
  return startReplay(
    {
      subscriptionId: sub.id,
      since: since ? new Date(since.getTime() - CLOCK_MARGIN_MS) : undefined,
      only401: true,
      trigger: "manual",
    },
    actor,
  );
}

/** The first 401 after the subscription's last successful delivery in the receiver's log. */
export async function findSpikeStart(subscriptionId: string): Promise<Date | null> {
  const lastOk = await db().inboundDelivery.findFirst({
    where: { subscriptionId, status: { gte: 200, lt: 300 } },
    orderBy: { receivedAt: "desc" },
    select: { receivedAt: true },
  });
  const first401 = await db().inboundDelivery.findFirst({
    where: { subscriptionId, status: 401, ...(lastOk ? { receivedAt: { gt: lastOk.receivedAt } } : {}) },
    orderBy: { receivedAt: "asc" },
    select: { receivedAt: true },
  });
  return first401?.receivedAt ?? null;
}

async function settleThenReplay(
  runId: string,
  progress: (p: Json) => Promise<void>,
  o: {
    subscriptionId: string;
    source: SecretSource;
    since: Date;
    secretLast4: string;
    actor: string;
    settle?: boolean;
  },
): Promise<Json> {
  const settleSeconds = o.settle === false ? 0 : getConfig().TALLY_ROTATION_SETTLE_SECONDS;
  // replayAt lets the dashboard count down to the replay
  await progress({
    phase: "settling",
    settleSeconds,
    replayAt: new Date(Date.now() + settleSeconds * 1000).toISOString(),
  });
  // Deliveries signed with the new secret before we stored it are still being attempted; wait for them.
  if (settleSeconds > 0) await new Promise((r) => setTimeout(r, settleSeconds * 1000));
  await progress({ phase: "replaying" });
  const since = new Date(o.since.getTime() - CLOCK_MARGIN_MS);
  const replay = await startReplay({ subscriptionId: o.subscriptionId, since, only401: true, trigger: runId }, o.actor);
  const end = await replay.done;
  const summary: Json = {
    source: o.source,
    secretLast4: o.secretLast4,
    replaySince: since.toISOString(),
    replayRunId: replay.runId,
    replay: end.summary,
  };
  if (end.state === "failed")
    throw new RunFailed(`secret stored; replaying the 401s failed: ${end.error ?? "unknown error"}`, summary);
  return summary;
}

function platformMessage(err: unknown, webhookId: string): string {
  if (answerLost(err))
    return `The platform's answer to rotate-secret was lost ${ROTATE_ATTEMPTS} times (last: ${err instanceof Error ? err.message : String(err)}): it may have rotated the secret anyway, and then deliveries fail with 401 until a rotation succeeds. Tally rotates again every ${RETRY_IN_DOUBT_MS / 1000} s until one does.`;
  if (err instanceof PlatformNotFound)
    return `The platform has no webhook ${webhookId} (404); register the subscriptions again`;
  if (err instanceof PlatformError) return `The platform did not rotate the secret: ${err.message}`;
  return `Rotating the secret failed: ${err instanceof Error ? err.message : String(err)}`;
}
