"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { replayBodySchema, startedSchema } from "@/lib/operations/client";
import { postParsed } from "@/lib/browser/client";
import { operationKeys } from "./query-keys";

export type ReplayInput = z.input<typeof replayBodySchema>;

/** POST /api/operations/replay → {runId}: replays every failed delivery (one subscription or all). */
export function useStartReplay() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReplayInput) =>
      postParsed("/api/operations/replay", startedSchema, replayBodySchema.parse(body)),
    onSuccess: () => client.invalidateQueries({ queryKey: operationKeys.histories() }),
  });
}
