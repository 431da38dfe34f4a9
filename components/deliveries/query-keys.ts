import type { DeliveryFilter } from "@/lib/webhooks/client";

// Query keys of the deliveries feature; shared by the server page (prefetch) and the hooks.

export const deliveryKeys = {
  all: ["deliveries"] as const,
  inbound: (filter: DeliveryFilter, cursor?: string) =>
    [...deliveryKeys.all, "inbound", filter, cursor ?? null] as const,
  platform: (filter: DeliveryFilter, cursor?: string) =>
    [...deliveryKeys.all, "platform", filter, cursor ?? null] as const,
};
