"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { destinationSchema } from "@/lib/outbound/client";
import { postParsed } from "@/lib/browser/client";
import { outboundKeys } from "./query-keys";

/** POST /api/destinations/{id}/disable or /enable. */
export function useSetDestinationEnabled() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      postParsed(`/api/destinations/${encodeURIComponent(id)}/${enabled ? "enable" : "disable"}`, destinationSchema),
    onSettled: () => client.invalidateQueries({ queryKey: outboundKeys.all }),
  });
}
