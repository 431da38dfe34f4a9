import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ackResultSchema, silenceResultSchema } from "@/lib/alerts/client";
import { deleteParsed, postParsed } from "@/lib/browser/client";
import { alertKeys } from "./query-keys";

const path = (rule: string, verb: "acknowledge" | "silence") => `/api/alerts/${encodeURIComponent(rule)}/${verb}`;

/** Acknowledge, silence for a time, lift a silence: each refreshes the page's view when it settles. */
export function useAlertActions() {
  const client = useQueryClient();
  const onSettled = () => client.invalidateQueries({ queryKey: alertKeys.all });
  return {
    acknowledge: useMutation({
      mutationFn: (rule: string) => postParsed(path(rule, "acknowledge"), ackResultSchema),
      onSettled,
    }),
    silence: useMutation({
      mutationFn: (v: { rule: string; minutes: number; note: string | null }) =>
        postParsed(path(v.rule, "silence"), silenceResultSchema, { minutes: v.minutes, note: v.note }),
      onSettled,
    }),
    unsilence: useMutation({
      mutationFn: (rule: string) => deleteParsed(path(rule, "silence"), silenceResultSchema),
      onSettled,
    }),
  };
}
