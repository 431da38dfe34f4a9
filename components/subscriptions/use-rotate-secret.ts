"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { rotatedSchema, rotateFailureSchema } from "@/lib/subscriptions/client";
import { ApiError, postParsed } from "@/lib/browser/client";
import { subscriptionKeys } from "./query-keys";

/** The new secret when rotation failed to store it: the platform already switched, so it must be shown. */
export function unstoredSecret(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  const parsed = rotateFailureSchema.safeParse(err.body);
  return parsed.success ? parsed.data.secret : null;
}

/**
 * POST /api/subscriptions/{id}/rotate → {runId, secret}. The secret is handed to the caller once and
 * not kept: gcTime 0 drops the finished mutation (and its answer) from the cache at once.
 */
export function useRotateSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (subscriptionId: string) =>
      postParsed(`/api/subscriptions/${encodeURIComponent(subscriptionId)}/rotate`, rotatedSchema),
    gcTime: 0,
    onSettled: () => client.invalidateQueries({ queryKey: subscriptionKeys.all }),
  });
}
