import { useMutation, useQueryClient } from "@tanstack/react-query";
import { overviewKeys } from "@/components/overview/query-keys";
import { postParsed } from "@/lib/browser/client";
import { cancelledJobSchema } from "@/lib/jobs/client";

export function useCancelJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) => postParsed(`/api/jobs/${encodeURIComponent(jobId)}/cancel`, cancelledJobSchema),
    onSettled: () => client.invalidateQueries({ queryKey: overviewKeys.all }),
  });
}
