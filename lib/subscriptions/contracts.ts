import { z } from "zod";

// GET /api/subscriptions (issue 5's contract): never a whole secret, only its last 4 characters.

export const EVENT_TYPES = ["extract_completed", "batch_completed", "crawl_completed"] as const;

export const subscriptionItemSchema = z.object({
  id: z.string(),
  eventType: z.string(),
  url: z.string(),
  isActive: z.boolean(),
  secretLast4: z.string().max(4).nullable(),
  rotatedAt: z.string().nullable(),
});
export type SubscriptionItem = z.infer<typeof subscriptionItemSchema>;

export const subscriptionListSchema = z.object({ items: z.array(subscriptionItemSchema) });
export type SubscriptionList = z.infer<typeof subscriptionListSchema>;

/** POST /api/subscriptions/{id}/rotate: the new secret comes back once, in this answer only. */
export const rotatedSchema = z.object({ runId: z.string().min(1), secret: z.string().min(1).optional() });

/** An error answer of rotate may hand over the new secret when storing it failed (issue 5). */
export const rotateFailureSchema = z.object({ secret: z.string().min(1), message: z.string().optional() });

export const setSecretBodySchema = z.object({ secret: z.string().min(8).max(512) });

/** Event types with no subscription yet: what "Register webhooks" would add. */
export function missingEventTypes(items: Pick<SubscriptionItem, "eventType">[]): string[] {
  const have = new Set(items.map((i) => i.eventType));
  return EVENT_TYPES.filter((t) => !have.has(t));
}
