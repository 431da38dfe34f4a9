import { useQuery } from "@tanstack/react-query";
import { alertsViewSchema, type AlertsView } from "@/lib/alerts/contracts";
import { getParsed } from "@/lib/browser/parsed";
import { alertKeys } from "./query-keys";

export function fetchAlerts(signal?: AbortSignal): Promise<AlertsView> {
  return getParsed("/api/alerts", alertsViewSchema, signal);
}

/** Rules, channels and history; prefetched by the page (hydrated), then a refresh every 10 s. */
export function useAlerts() {
  return useQuery({
    queryKey: alertKeys.view(),
    queryFn: ({ signal }) => fetchAlerts(signal),
    refetchInterval: 10_000,
  });
}
