"use client";

import { useQuery } from "@tanstack/react-query";
import { type SimulatorKnobs, simulatorKnobsSchema } from "@/lib/demo/client";
import { getParsed } from "@/lib/browser/client";
import { settingsKeys } from "./query-keys";

export function fetchSimulatorKnobs(signal?: AbortSignal): Promise<SimulatorKnobs> {
  return getParsed("/api/simulator/config", simulatorKnobsSchema, signal);
}

export function useSimulatorKnobs(enabled: boolean) {
  return useQuery({
    queryKey: settingsKeys.simulator(),
    queryFn: ({ signal }) => fetchSimulatorKnobs(signal),
    enabled,
    staleTime: 30_000,
  });
}
