"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type DeliveryFilter, filterToParams, type PlatformPage, platformPageSchema } from "@/lib/webhooks/client";
import { getParsed } from "@/lib/browser/client";
import { deliveryKeys } from "./query-keys";

export function fetchPlatform(
  filter: DeliveryFilter,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<PlatformPage> {
  const p = filterToParams(filter);
  p.set("log", "platform");
  if (cursor) p.set("cursor", cursor);
  return getParsed(`/api/deliveries?${p}`, platformPageSchema, signal);
}

export function usePlatformDeliveries(filter: DeliveryFilter, cursor: string | undefined, live: boolean) {
  return useQuery({
    queryKey: deliveryKeys.platform(filter, cursor),
    queryFn: ({ signal }) => fetchPlatform(filter, cursor, signal),
    placeholderData: keepPreviousData,
    refetchInterval: live && !cursor ? 10_000 : false,
  });
}
