import { useMutation, useQueryClient } from "@tanstack/react-query";
import { testResultSchema, type Channel } from "@/lib/alerts/contracts";
import { postParsed } from "@/lib/browser/parsed";
import { alertKeys } from "./query-keys";

export function useSendTestAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (channel: Channel) => postParsed("/api/alerts/test", testResultSchema, { channel }),
    onSettled: () => client.invalidateQueries({ queryKey: alertKeys.all }),
  });
}
