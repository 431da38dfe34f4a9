"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { type Run, runSchema } from "@/lib/operations/client";
import { getParsed } from "@/lib/browser/client";
import { operationKeys } from "./query-keys";

export function fetchRun(runId: string, signal?: AbortSignal): Promise<Run> {
  return getParsed(`/api/operations/${encodeURIComponent(runId)}`, runSchema, signal);
}

/**
 * Follows one run: polls every second while it runs, stops when it ends, then refreshes the run
 * history, the audit log and whatever the caller names (the lists the run changed).
 */
export function useOperationRun(runId: string | null, onFinished?: (run: Run) => void) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: operationKeys.run(runId ?? "none"),
    queryFn: ({ signal }) => (runId ? fetchRun(runId, signal) : Promise.reject(new Error("no run"))),
    enabled: runId !== null,
    refetchInterval: (q) => (q.state.data?.state === "running" ? 1000 : false),
    staleTime: 0,
  });
  const announced = useRef<string | null>(null);
  const run = query.data;
  useEffect(() => {
    if (!run || run.state === "running" || announced.current === run.id) return;
    announced.current = run.id;
    void client.invalidateQueries({ queryKey: operationKeys.histories() });
    void client.invalidateQueries({ queryKey: operationKeys.audits() });
    onFinished?.(run);
  }, [run, client, onFinished]);
  return query;
}

/** A start button stays busy from the click until the run it started ends (or can no longer be followed). */
export function useRunBusy(runId: string | null): boolean {
  const run = useOperationRun(runId);
  return runId !== null && !run.error && run.data?.state !== "failed" && run.data?.state !== "succeeded";
}
