import { useMutation, useQueryClient } from "@tanstack/react-query";
import { overviewKeys } from "@/components/overview/query-keys";
import { postParsed } from "@/lib/browser/client";
import { submittedJobSchema } from "@/lib/jobs/client";

export function useSubmitJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) => postParsed("/api/jobs", submittedJobSchema, body),
    onSuccess: () => client.invalidateQueries({ queryKey: overviewKeys.all }),
  });
}
