import { useQuery } from "@tanstack/react-query";
import { type AlertsView, alertsViewSchema } from "@/lib/alerts/client";
import { getParsed } from "@/lib/browser/client";
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
