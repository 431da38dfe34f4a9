"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { apiFetch, getParsed, postParsed } from "@/lib/browser/client";
import {
  createdRunSchema,
  runListSchema,
  runUrlPageSchema,
  type RunView,
  runViewSchema,
  type UrlState,
} from "@/lib/runs/client";
import { runKeys } from "./query-keys";

/** Runs still moving are followed every few seconds; finished ones do not change. */
const live = (run: RunView | undefined) => run?.state === "submitting" || run?.state === "running";

export function useRuns(cursor: string | undefined) {
  return useQuery({
    queryKey: runKeys.list(cursor),
    queryFn: ({ signal }) =>
      getParsed(`/api/runs?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, runListSchema, signal),
    refetchInterval: (q) => (q.state.data?.items.some(live) ? 3000 : false),
  });
}

export function useRun(id: string) {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: runKeys.detail(id),
    queryFn: ({ signal }) => getParsed(`/api/runs/${encodeURIComponent(id)}`, runViewSchema, signal),
    refetchInterval: (q) => (live(q.state.data) ? 2000 : false),
  });
  // The URL table follows the header: whenever the run's state or counts move (its last change, the
  // run completing, included), its URL pages are read again, so the table never shows a URL as
  // submitted after the header says it is stored.
  const run = q.data;
  const version = run ? `${run.state}:${Object.values(run.counts).join(",")}` : "";
  useEffect(() => {
    if (version) void client.invalidateQueries({ queryKey: runKeys.allUrls(id) });
  }, [client, id, version]);
  return q;
}

export function useRunUrls(id: string, state: UrlState | undefined, cursor: string | undefined, follow: boolean) {
  const qs = new URLSearchParams({ limit: "50" });
  if (state) qs.set("state", state);
  if (cursor) qs.set("cursor", cursor);
  return useQuery({
    queryKey: runKeys.urls(id, state, cursor),
    queryFn: ({ signal }) => getParsed(`/api/runs/${encodeURIComponent(id)}/urls?${qs}`, runUrlPageSchema, signal),
    refetchInterval: follow ? 4000 : false,
  });
}

/** POST /api/runs with the list as text (one URL a line) or CSV, the options in the query. */
export function useCreateRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      text: string;
      csv: boolean;
      name?: string;
      ignoreInvalid: boolean;
      maxTokens?: number;
      /** The API's `checks` and `escalation`, sent as JSON text in the query beside the list's text body. */
      checks?: unknown;
      escalation?: unknown;
    }) => {
      const qs = new URLSearchParams();
      if (input.name) qs.set("name", input.name);
      if (input.maxTokens !== undefined) qs.set("maxTokens", String(input.maxTokens));
      if (input.checks !== undefined) qs.set("checks", JSON.stringify(input.checks));
      if (input.escalation !== undefined) qs.set("escalation", JSON.stringify(input.escalation));
      if (input.ignoreInvalid) qs.set("ignoreInvalid", "true");
      const body = await apiFetch<unknown>(`/api/runs${qs.size ? `?${qs}` : ""}`, {
        method: "POST",
        headers: { "content-type": input.csv ? "text/csv" : "text/plain" },
        body: input.text,
      });
      return createdRunSchema.parse(body);
    },
    onSettled: () => client.invalidateQueries({ queryKey: runKeys.all }),
  });
}

export function useRunAction(id: string, action: "cancel" | "retry-failed") {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => postParsed(`/api/runs/${encodeURIComponent(id)}/${action}`, runViewSchema.loose()),
    onSettled: () => client.invalidateQueries({ queryKey: runKeys.all }),
  });
}
