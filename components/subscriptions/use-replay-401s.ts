"use client";

import { useMutation } from "@tanstack/react-query";
import { startedSchema } from "@/lib/operations/client";
import { postParsed } from "@/lib/browser/client";

/** POST /api/subscriptions/{id}/replay-401s → {runId}: replay the deliveries refused since the rotation. */
export function useReplay401s() {
  return useMutation({
    mutationFn: (subscriptionId: string) =>
      postParsed(`/api/subscriptions/${encodeURIComponent(subscriptionId)}/replay-401s`, startedSchema),
  });
}
