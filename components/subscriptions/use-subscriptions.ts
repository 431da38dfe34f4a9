"use client";

import { useQuery } from "@tanstack/react-query";
import { subscriptionListSchema, type SubscriptionList } from "@/lib/dashboard/contracts/subscriptions";
import { getParsed } from "@/lib/client/parsed";
import { subscriptionKeys } from "./keys";

export function fetchSubscriptions(signal?: AbortSignal): Promise<SubscriptionList> {
  return getParsed("/api/subscriptions", subscriptionListSchema, signal);
}

export function useSubscriptions() {
  return useQuery({ queryKey: subscriptionKeys.list(), queryFn: ({ signal }) => fetchSubscriptions(signal), refetchInterval: 15_000 });
}
