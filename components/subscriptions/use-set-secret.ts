"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { startedSchema } from "@/lib/operations/client";
import { postParsed } from "@/lib/browser/client";
import { subscriptionKeys } from "./query-keys";

/** POST /api/subscriptions/{id}/secret {secret} → {runId}: store a secret rotated elsewhere, then replay. */
export function useSetSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ subscriptionId, secret }: { subscriptionId: string; secret: string }) =>
      postParsed(`/api/subscriptions/${encodeURIComponent(subscriptionId)}/secret`, startedSchema, { secret }),
    // the request body held the secret; keep nothing of it once settled
    gcTime: 0,
    onSettled: () => client.invalidateQueries({ queryKey: subscriptionKeys.all }),
  });
}
