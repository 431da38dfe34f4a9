"use client";

import { useQuery } from "@tanstack/react-query";
import { destinationListSchema, healthListSchema } from "@/lib/outbound/client";
import { getParsed } from "@/lib/browser/client";
import { outboundKeys } from "./query-keys";

export function useDestinations() {
  return useQuery({
    queryKey: outboundKeys.destinations(),
    queryFn: ({ signal }) => getParsed("/api/destinations", destinationListSchema, signal),
    refetchInterval: 15_000,
  });
}

export function useDestinationHealth() {
  return useQuery({
    queryKey: outboundKeys.health(),
    queryFn: ({ signal }) => getParsed("/api/outbound/health", healthListSchema, signal),
    refetchInterval: 10_000,
  });
}
