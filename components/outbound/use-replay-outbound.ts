"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReplayBody, replayResultSchema } from "@/lib/outbound/client";
import { postParsed } from "@/lib/browser/client";
import { outboundKeys } from "./query-keys";

/** POST /api/outbound/replay: one failed delivery, or a destination's failed deliveries since a time. */
export function useReplayOutbound() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReplayBody) => postParsed("/api/outbound/replay", replayResultSchema, body),
    onSettled: () => client.invalidateQueries({ queryKey: outboundKeys.all }),
  });
}
