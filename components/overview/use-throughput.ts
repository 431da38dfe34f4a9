import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/browser/api";
import type { Throughput, ThroughputRange } from "@/lib/overview/throughput-contracts";
import { overviewKeys } from "./query-keys";

export function fetchThroughput(range: ThroughputRange, signal?: AbortSignal): Promise<Throughput> {
  return apiFetch<Throughput>(`/api/overview/throughput?range=${range}`, { signal });
}

/** The activity chart's data, live: every 10 s for the last hour, every minute for the day. */
export function useThroughput(range: ThroughputRange) {
  return useQuery({
    queryKey: overviewKeys.throughput(range),
    queryFn: ({ signal }) => fetchThroughput(range, signal),
    refetchInterval: range === "hour" ? 10_000 : 60_000,
  });
}
