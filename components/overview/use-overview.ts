import { useQuery } from "@tanstack/react-query";
import { getParsed } from "@/lib/browser/parsed";
import { overviewSchema, type Overview } from "@/lib/overview/contracts";
import { overviewKeys } from "./query-keys";

export const OVERVIEW_REFRESH_MS = 5000;

export function fetchOverview(signal?: AbortSignal): Promise<Overview> {
  return getParsed("/api/overview", overviewSchema, signal);
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
