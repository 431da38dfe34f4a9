import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/browser/api";
import type { Channel, TestResult } from "@/lib/alerts/contracts";
import { alertKeys } from "./query-keys";

export function useSendTestAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (channel: Channel) => apiFetch<TestResult>("/api/alerts/test", { method: "POST", json: { channel } }),
    onSettled: () => client.invalidateQueries({ queryKey: alertKeys.all }),
  });
}
