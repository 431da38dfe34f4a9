import { useMutation, useQueryClient } from "@tanstack/react-query";
import { overviewKeys } from "@/components/overview/query-keys";
import { apiFetch } from "@/lib/browser/api";
import type { ActionSummary, RetryBody } from "@/lib/dead-letters/actions";
import { deadLetterKeys } from "./query-keys";

export function useRetryDeadLetters() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RetryBody) => apiFetch<ActionSummary>("/api/dead-letters/retry", { method: "POST", json: body }),
    // Also on a 409: the list and its count have moved, so show the new ones.
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: deadLetterKeys.all }),
        client.invalidateQueries({ queryKey: overviewKeys.all }),
      ]),
  });
}
