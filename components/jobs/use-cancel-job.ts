import { useMutation, useQueryClient } from "@tanstack/react-query";
import { overviewKeys } from "@/components/overview/query-keys";
import { apiFetch } from "@/lib/browser/api";

export type CancelAnswer = {
  jobId: string;
  kind: string;
  outcome: "cancelled";
  platformStatus: string;
  inFlight: number | null;
};

export function useCancelJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) =>
      apiFetch<CancelAnswer>(`/api/jobs/${encodeURIComponent(jobId)}/cancel`, { method: "POST" }),
    onSettled: () => client.invalidateQueries({ queryKey: overviewKeys.all }),
  });
}
