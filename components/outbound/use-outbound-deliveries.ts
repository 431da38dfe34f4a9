"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type DeliveryListQuery, deliveryPageSchema } from "@/lib/outbound/client";
import { getParsed } from "@/lib/browser/client";
import { deliverySearch, outboundKeys } from "./query-keys";

/** One page of outbound deliveries; the newest page refreshes while live. */
export function useOutboundDeliveries(q: DeliveryListQuery, live: boolean) {
  return useQuery({
    queryKey: outboundKeys.deliveries(q),
    queryFn: ({ signal }) => getParsed(`/api/outbound${deliverySearch(q)}`, deliveryPageSchema, signal),
    placeholderData: keepPreviousData,
    refetchInterval: live && !q.cursor ? 5_000 : false,
  });
}
