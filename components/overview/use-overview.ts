import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/browser/api";
import type { Overview } from "@/lib/overview/overview";
import { overviewKeys } from "./query-keys";

export const OVERVIEW_REFRESH_MS = 5000;

export function fetchOverview(signal?: AbortSignal): Promise<Overview> {
  return apiFetch<Overview>("/api/overview", { signal });
}

/** The overview, live: the server's first answer is the initial data, then it refreshes every few seconds. */
export function useOverview(initial: Overview) {
  return useQuery({
    queryKey: overviewKeys.summary(),
    queryFn: ({ signal }) => fetchOverview(signal),
    initialData: initial,
    initialDataUpdatedAt: Date.parse(initial.generatedAt),
    refetchInterval: OVERVIEW_REFRESH_MS,
  });
}
