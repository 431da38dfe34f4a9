import { useQuery } from "@tanstack/react-query";
import { getParsed } from "@/lib/browser/client";
import { type Throughput, type ThroughputRange, throughputSchema } from "@/lib/overview/client";
import { overviewKeys } from "./query-keys";

export function fetchThroughput(range: ThroughputRange, signal?: AbortSignal): Promise<Throughput> {
  return getParsed(`/api/overview/throughput?range=${range}`, throughputSchema, signal);
}

/** The activity chart's data, live: every 10 s for the last hour, every minute for the day. */
export function useThroughput(range: ThroughputRange) {
  return useQuery({
    queryKey: overviewKeys.throughput(range),
    queryFn: ({ signal }) => fetchThroughput(range, signal),
    refetchInterval: range === "hour" ? 10_000 : 60_000,
  });
}
