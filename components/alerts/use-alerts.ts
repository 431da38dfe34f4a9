import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/browser/api";
import type { AlertsView } from "@/lib/alerts/contracts";
import { alertKeys } from "./query-keys";

export function fetchAlerts(signal?: AbortSignal): Promise<AlertsView> {
  return apiFetch<AlertsView>("/api/alerts", { signal });
}

/** Rules, channels and history; the server page's answer first, then a refresh every 10 s. */
export function useAlerts(initial: AlertsView) {
  return useQuery({
    queryKey: alertKeys.view(),
    queryFn: ({ signal }) => fetchAlerts(signal),
    initialData: initial,
    refetchInterval: 10_000,
  });
}
