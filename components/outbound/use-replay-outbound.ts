"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { replayResultSchema, type ReplayBody } from "@/lib/outbound/contracts";
import { postParsed } from "@/lib/browser/parsed";
import { outboundKeys } from "./query-keys";

/** POST /api/outbound/replay: one failed delivery, or a destination's failed deliveries since a time. */
export function useReplayOutbound() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReplayBody) => postParsed("/api/outbound/replay", replayResultSchema, body),
    onSettled: () => client.invalidateQueries({ queryKey: outboundKeys.all }),
  });
}
