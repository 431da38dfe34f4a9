import "server-only";
import { z } from "zod";
import { EVENT_TYPES } from "./events";
import { httpUrl, listEnvelope, timestamp } from "./schemas";

export const webhookEventTypeSchema = z.enum(EVENT_TYPES);
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;

export const deliveryStatusSchema = z.enum(["pending", "success", "failed", "abandoned"]);
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;

// ---- requests ----

export const createWebhookRequestSchema = z.object({
  url: httpUrl,
  event_type: webhookEventTypeSchema,
  description: z.string().max(500).nullish(),
});
export type CreateWebhookRequest = z.input<typeof createWebhookRequestSchema>;

/** PATCH: every field optional; null on a non-nullable field means "leave unchanged". */
export const updateWebhookRequestSchema = z.object({
  url: httpUrl.nullish(),
  description: z.string().max(500).nullish(),
  is_active: z.boolean().nullish(),
  event_type: webhookEventTypeSchema.nullish(),
});
export type UpdateWebhookRequest = z.input<typeof updateWebhookRequestSchema>;

// ---- responses ----

export const webhookSchema = z.looseObject({
  id: z.string().min(1),
  url: z.string(),
  description: z.string().nullish(),
  is_active: z.boolean(),
  event_type: webhookEventTypeSchema,
  created_at: timestamp,
  updated_at: timestamp,
});
export type Webhook = z.infer<typeof webhookSchema>;

/** Only the 201 create response carries the secret. */
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string().min(1) });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const webhookListSchema = listEnvelope("items", webhookSchema);

export const rotatedSecretSchema = z.looseObject({ secret: z.string().min(1) });

export const deliverySchema = z.looseObject({
  id: z.string().min(1),
  event_type: z.string(),
  job_id: z.string().nullish(),
  attempt_number: z.number().int(),
  status: deliveryStatusSchema,
  http_status: z.number().int().nullish(),
  delivered_at: timestamp.nullish(),
  created_at: timestamp,
});
export type Delivery = z.infer<typeof deliverySchema>;
export const deliveryListSchema = listEnvelope("items", deliverySchema);

/** The body the platform POSTs to a subscription URL. `data` is checked per event by the receiver. */
export const webhookEnvelopeSchema = z.looseObject({
  event: z.string().min(1),
  webhook_id: z.string().min(1),
  delivery_id: z.string().min(1),
  timestamp: z.union([timestamp, z.number()]),
  data: z.looseObject({ job_id: z.string().min(1) }),
});
export type WebhookEnvelope = z.infer<typeof webhookEnvelopeSchema>;
