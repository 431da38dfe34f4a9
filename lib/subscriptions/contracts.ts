import { z } from "zod";
import { EVENT_TYPES } from "../platform/client";
import { idParam } from "../operations/client";

// GET /api/subscriptions (issue 5's contract): never a whole secret, only its last 4 characters.

export { EVENT_TYPES };

/** An event type whose webhooks cannot reach Tally (the overview's warning). */
export const subscriptionAlertSchema = z.object({
  eventType: z.string(),
  problem: z.enum(["missing", "inactive", "elsewhere"]),
  message: z.string(),
});
export type SubscriptionAlert = z.infer<typeof subscriptionAlertSchema>;

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

/** POST /api/subscriptions/{id}/secret: a secret rotated elsewhere. */
export const secretBodySchema = z.strictObject({
  secret: z
    .string({ error: "secret must be a string" })
    .trim()
    .min(8, { error: "secret must be at least 8 characters" })
    .max(1000, { error: "secret must be at most 1000 characters" })
    // A Standard Webhooks secret's key is the base64 after whsec_: an empty or short key would make
    // signatures anyone can forge, whatever scheme the subscription uses.
    .refine((s) => !/^whsec_/i.test(s) || whsecKeyBytes(s) >= 24, {
      error: "secret: a whsec_ secret must carry at least 24 bytes of base64 key after whsec_",
    }),
});

/** How many bytes the base64 after `whsec_` decodes to; 0 when it is not base64 at all. */
export function whsecKeyBytes(secret: string): number {
  const key = secret.slice(6);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(key)) return 0;
  return Buffer.from(key, "base64").length;
}

export const subscriptionParamsSchema = z.object({ id: idParam("id") });

/** Event types with no subscription yet: what "Register webhooks" would add. */
export function missingEventTypes(items: Pick<SubscriptionItem, "eventType">[]): string[] {
  const have = new Set(items.map((i) => i.eventType));
  return EVENT_TYPES.filter((t) => !have.has(t));
}
