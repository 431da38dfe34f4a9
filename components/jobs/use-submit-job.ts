import { useMutation, useQueryClient } from "@tanstack/react-query";
import { overviewKeys } from "@/components/overview/query-keys";
import { apiFetch } from "@/lib/browser/api";

export type Submitted = { jobId: string; kind: string; status: string; outcome: string };

export function useSubmitJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => apiFetch<Submitted>("/api/jobs", { method: "POST", json: body }),
    onSuccess: () => client.invalidateQueries({ queryKey: overviewKeys.all }),
  });
}
