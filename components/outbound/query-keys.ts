import type { DeliveryListQuery } from "@/lib/outbound/client";

// Query keys of the Outbound page; mutations invalidate outboundKeys.all (destinations, health, lists).
export const outboundKeys = {
  all: ["outbound"] as const,
  destinations: () => [...outboundKeys.all, "destinations"] as const,
  health: () => [...outboundKeys.all, "health"] as const,
  deliveries: (q: DeliveryListQuery) => [...outboundKeys.all, "deliveries", q] as const,
  // keyed by the attempt count too, so a new attempt loads the history afresh
  attempts: (deliveryId: number, count: number) => [...outboundKeys.all, "attempts", deliveryId, count] as const,
};

/** The query string of a delivery list request; defaults and empty values are left out. */
export function deliverySearch(q: Partial<DeliveryListQuery>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q))
    if (v !== undefined && v !== "" && !(k === "limit" && v === 50)) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : "";
}
