import { useMutation, useQueryClient } from "@tanstack/react-query";
import { overviewKeys } from "@/components/overview/query-keys";
import { postParsed } from "@/lib/browser/client";
import type { RetryBody } from "@/lib/dead-letters";
import { actionSummarySchema } from "@/lib/dead-letters/client";
import { deadLetterKeys } from "./query-keys";

export function useRetryDeadLetters() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RetryBody) => postParsed("/api/dead-letters/retry", actionSummarySchema, body),
    // Also on a 409: the list and its count have moved, so show the new ones.
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: deadLetterKeys.all }),
        client.invalidateQueries({ queryKey: overviewKeys.all }),
      ]),
  });
}
