import "server-only";
import { db } from "../db";
import { NotFound } from "../errors";

// The operator's view of subscriptions: never a whole secret, only its last four characters.

export type SubscriptionView = {
  id: string;
  eventType: string;
  url: string;
  isActive: boolean;
  secretLast4: string | null;
  rotatedAt: string | null;
  platformId: string | null;
  previousSecretExpiresAt: string | null;
};

// Short secrets would be given away almost whole by their last four characters.
const last4 = (secret: string | null) => (secret && secret.length > 8 ? secret.slice(-4) : null);

const select = {
  id: true,
  eventType: true,
  url: true,
  isActive: true,
  secret: true,
  rotatedAt: true,
  platformId: true,
  previousSecretExpiresAt: true,
} as const;

type Row = {
  id: string;
  eventType: string;
  url: string;
  isActive: boolean;
  secret: string | null;
  rotatedAt: Date | null;
  platformId: string | null;
  previousSecretExpiresAt: Date | null;
};

function toView(r: Row): SubscriptionView {
  return {
    id: r.id,
    eventType: r.eventType,
    url: r.url,
    isActive: r.isActive,
    secretLast4: last4(r.secret),
    rotatedAt: r.rotatedAt?.toISOString() ?? null,
    platformId: r.platformId,
    previousSecretExpiresAt:
      r.previousSecretExpiresAt && r.previousSecretExpiresAt > new Date()
        ? r.previousSecretExpiresAt.toISOString()
        : null,
  };
}

export async function listSubscriptions(): Promise<SubscriptionView[]> {
  const rows = await db().subscription.findMany({ select, orderBy: [{ eventType: "asc" }, { createdAt: "asc" }] });
  return rows.map(toView);
}

export async function getSubscription(id: string): Promise<SubscriptionView> {
  const row = await db().subscription.findUnique({ where: { id }, select });
  if (!row) throw new NotFound(`No subscription ${id}`);
  return toView(row);
}

/** Scripts accept Tally's key or the platform's webhook id. */
export async function resolveSubscriptionId(idOrWebhookId: string): Promise<string> {
  const row = await db().subscription.findFirst({
    where: { OR: [{ id: idOrWebhookId }, { platformId: idOrWebhookId }] },
    select: { id: true },
  });
  if (!row) throw new NotFound(`No subscription or webhook ${idOrWebhookId}`);
  return row.id;
}
