import { useMutation, useQueryClient } from "@tanstack/react-query";
import { overviewKeys } from "@/components/overview/query-keys";
import { postParsed } from "@/lib/browser/client";
import type { DiscardBody } from "@/lib/dead-letters";
import { actionSummarySchema } from "@/lib/dead-letters/client";
import { deadLetterKeys } from "./query-keys";

export function useDiscardDeadLetters() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DiscardBody) => postParsed("/api/dead-letters/discard", actionSummarySchema, body),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: deadLetterKeys.all }),
        client.invalidateQueries({ queryKey: overviewKeys.all }),
      ]),
  });
}
