import { useMutation, useQueryClient } from "@tanstack/react-query";
import { overviewKeys } from "@/components/overview/query-keys";
import { apiFetch } from "@/lib/client/api";
import type { ActionSummary, DiscardBody } from "@/lib/dashboard/dead-letter-actions";
import { deadLetterKeys } from "./query-keys";

export function useDiscardDeadLetters() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DiscardBody) => apiFetch<ActionSummary>("/api/dead-letters/discard", { method: "POST", json: body }),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: deadLetterKeys.all }), client.invalidateQueries({ queryKey: overviewKeys.all })]),
  });
}
