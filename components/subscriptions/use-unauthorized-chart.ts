"use client";

import { useQuery } from "@tanstack/react-query";
import { type UnauthorizedChart, unauthorizedChartSchema } from "@/lib/subscriptions/client";
import { getParsed } from "@/lib/browser/client";
import { subscriptionKeys } from "./query-keys";

export function fetchUnauthorizedChart(minutes: number, signal?: AbortSignal): Promise<UnauthorizedChart> {
  return getParsed(`/api/deliveries/unauthorized?minutes=${minutes}`, unauthorizedChartSchema, signal);
}

/** Refreshed every 5 s: the spike after a rotation, and its recovery, show up as they happen. */
export function useUnauthorizedChart(minutes: number) {
  return useQuery({
    queryKey: subscriptionKeys.unauthorized(minutes),
    queryFn: ({ signal }) => fetchUnauthorizedChart(minutes, signal),
    refetchInterval: 5000,
  });
}
