import { useQuery } from "@tanstack/react-query";
import { getParsed } from "@/lib/browser/client";
import { type Overview, overviewSchema } from "@/lib/overview/client";
import { overviewKeys } from "./query-keys";

export const OVERVIEW_REFRESH_MS = 5000;

export function fetchOverview(signal?: AbortSignal): Promise<Overview> {
  return getParsed("/api/overview", overviewSchema, signal);
}

/** The overview, live: the page prefetches it (hydrated), then it refreshes every few seconds. */
export function useOverview() {
  return useQuery({
    queryKey: overviewKeys.summary(),
    queryFn: ({ signal }) => fetchOverview(signal),
    refetchInterval: OVERVIEW_REFRESH_MS,
  });
}
