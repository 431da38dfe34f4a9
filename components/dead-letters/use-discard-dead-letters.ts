import { useMutation, useQueryClient } from "@tanstack/react-query";
import { overviewKeys } from "@/components/overview/query-keys";
import { apiFetch } from "@/lib/browser/api";
import type { ActionSummary, DiscardBody } from "@/lib/dead-letters/actions";
import { deadLetterKeys } from "./query-keys";

export function useDiscardDeadLetters() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DiscardBody) =>
      apiFetch<ActionSummary>("/api/dead-letters/discard", { method: "POST", json: body }),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: deadLetterKeys.all }),
        client.invalidateQueries({ queryKey: overviewKeys.all }),
      ]),
  });
}
