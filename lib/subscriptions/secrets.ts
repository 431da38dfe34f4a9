import "server-only";
import { getConfig } from "../config";
import { db } from "../db";
import { Conflict } from "../errors";
import { invalidateSecretCache } from "../webhooks";

// Where the receiver reads secrets from. A new secret, the old one as "previous" for a short
// window (deliveries signed before the switch are still in flight), rotatedAt and the rotation's
// record are written in one transaction: all of it or nothing.

export type SecretSource = "rotated" | "set_elsewhere";

export async function storeNewSecret(opts: {
  subscriptionId: string;
  secret: string;
  source: SecretSource;
  actor: string;
  runId: string | null;
  at?: Date;
}): Promise<{ rotatedAt: Date; rotationId: number }> {
  const at = opts.at ?? new Date();
  const ttlMs = getConfig().TALLY_PREVIOUS_SECRET_TTL_SECONDS * 1000;
  const result = await db().$transaction(async (tx) => {
    // Only while its run holds its lock: a rotation taken for dead (lib/subscriptions/recover.ts) is
    // being redone, and its secret may already be superseded on the platform. The update also keeps
    // the sweep from taking the run over while this transaction stores.
    if (opts.runId) {
      const { count } = await tx.operationRun.updateMany({
        where: { id: opts.runId, state: "running" },
        data: { heartbeatAt: new Date() },
      });
      if (count === 0)
        throw new Conflict(
          `Run ${opts.runId} was taken for dead before its secret was stored; the recovery's rotation supersedes it`,
        );
    }
    const current = await tx.subscription.findUniqueOrThrow({
      where: { id: opts.subscriptionId },
      select: { secret: true },
    });
    const keepPrevious = ttlMs > 0 && current.secret !== null && current.secret !== opts.secret;
    await tx.subscription.update({
      where: { id: opts.subscriptionId },
      data: {
        secret: opts.secret,
        previousSecret: keepPrevious ? current.secret : null,
        previousSecretExpiresAt: keepPrevious ? new Date(at.getTime() + ttlMs) : null,
        rotatedAt: at,
      },
    });
    const rotation = await tx.secretRotation.create({
      data: { subscriptionId: opts.subscriptionId, source: opts.source, actor: opts.actor, at, runId: opts.runId },
    });
    return { rotatedAt: at, rotationId: rotation.id };
  });
  // This process's receiver sees the new secret at once; others within their cache's second.
  invalidateSecretCache();
  return result;
}

/** Forgets previous secrets whose window has passed; returns how many were cleared. */
export async function clearExpiredPreviousSecrets(now = new Date()): Promise<number> {
  const { count } = await db().subscription.updateMany({
    where: { previousSecretExpiresAt: { lte: now } },
    data: { previousSecret: null, previousSecretExpiresAt: null },
  });
  if (count > 0) invalidateSecretCache();
  return count;
}

/** A database error may quote the values it was given; a secret must not travel on with it. */
export function redact(err: unknown, secret: string): string {
  const text = err instanceof Error ? err.message : String(err);
  return secret ? text.split(secret).join("[secret]") : text;
}
