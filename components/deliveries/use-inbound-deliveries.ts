"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type DeliveryFilter, filterToParams, type InboundPage, inboundPageSchema } from "@/lib/webhooks/client";
import { getParsed } from "@/lib/browser/client";
import { deliveryKeys } from "./query-keys";

export function fetchInbound(
  filter: DeliveryFilter,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<InboundPage> {
  const p = filterToParams(filter);
  p.set("log", "inbound");
  if (cursor) p.set("cursor", cursor);
  return getParsed(`/api/deliveries?${p}`, inboundPageSchema, signal);
}

/** The newest page refreshes itself while live; older pages hold still so they can be read. */
export function useInboundDeliveries(filter: DeliveryFilter, cursor: string | undefined, live: boolean) {
  return useQuery({
    queryKey: deliveryKeys.inbound(filter, cursor),
    queryFn: ({ signal }) => fetchInbound(filter, cursor, signal),
    placeholderData: keepPreviousData,
    refetchInterval: live && !cursor ? 5000 : false,
  });
}
