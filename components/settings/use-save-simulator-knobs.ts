"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type SimulatorKnobsPatch, simulatorKnobsSchema } from "@/lib/demo/client";
import { postParsed } from "@/lib/browser/client";
import { settingsKeys } from "./query-keys";

/** POST /api/simulator/config with the changed knobs; answers the simulator's knobs after the change. */
export function useSaveSimulatorKnobs() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: SimulatorKnobsPatch) => postParsed("/api/simulator/config", simulatorKnobsSchema, patch),
    onSuccess: (knobs) => client.setQueryData(settingsKeys.simulator(), knobs),
  });
}
