"use client";

import { useQuery } from "@tanstack/react-query";
import { type SubscriptionList, subscriptionListSchema } from "@/lib/subscriptions/client";
import { getParsed } from "@/lib/browser/client";
import { subscriptionKeys } from "./query-keys";

export function fetchSubscriptions(signal?: AbortSignal): Promise<SubscriptionList> {
  return getParsed("/api/subscriptions", subscriptionListSchema, signal);
}

export function useSubscriptions() {
  return useQuery({
    queryKey: subscriptionKeys.list(),
    queryFn: ({ signal }) => fetchSubscriptions(signal),
    refetchInterval: 15_000,
  });
}
