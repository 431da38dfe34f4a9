import { useQuery } from "@tanstack/react-query";
import { getParsed } from "@/lib/browser/client";
import { type DeadLetterPage, deadLetterPageSchema } from "@/lib/dead-letters/client";
import type { DeadLetterListQuery } from "@/lib/dead-letters";
import { deadLetterKeys, deadLetterSearch } from "./query-keys";

export function fetchDeadLetters(q: DeadLetterListQuery, signal?: AbortSignal): Promise<DeadLetterPage> {
  return getParsed(`/api/dead-letters${deadLetterSearch(q)}`, deadLetterPageSchema, signal);
}

/** One page of dead letters; prefetched by the page (hydrated), then it refreshes. */
export function useDeadLetters(q: DeadLetterListQuery) {
  return useQuery({
    queryKey: deadLetterKeys.list(q),
    queryFn: ({ signal }) => fetchDeadLetters(q, signal),
    refetchInterval: 10_000,
  });
}
