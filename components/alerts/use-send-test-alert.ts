import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Channel, testResultSchema } from "@/lib/alerts/client";
import { postParsed } from "@/lib/browser/client";
import { alertKeys } from "./query-keys";

export function useSendTestAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (channel: Channel) => postParsed("/api/alerts/test", testResultSchema, { channel }),
    onSettled: () => client.invalidateQueries({ queryKey: alertKeys.all }),
  });
}
