"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { createdDestinationSchema, type CreateDestination } from "@/lib/outbound/client";
import { postParsed } from "@/lib/browser/client";
import { outboundKeys } from "./query-keys";

/** POST /api/destinations → the destination with its whole secret, shown once by the caller. */
export function useCreateDestination() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateDestination) => postParsed("/api/destinations", createdDestinationSchema, body),
    // the answer holds the secret: keep nothing of it in the cache once settled
    gcTime: 0,
    onSettled: () => client.invalidateQueries({ queryKey: outboundKeys.all }),
  });
}
