"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type HistoryPage, historyPageSchema } from "@/lib/operations/client";
import { getParsed } from "@/lib/browser/client";
import { operationKeys, type HistoryKey } from "./query-keys";

export function fetchHistory(q: HistoryKey, signal?: AbortSignal): Promise<HistoryPage> {
  const p = new URLSearchParams({ limit: "20" });
  if (q.kind) p.set("kind", q.kind);
  if (q.cursor) p.set("cursor", q.cursor);
  return getParsed(`/api/operations/history?${p}`, historyPageSchema, signal);
}

/** Every 2 s while any run is running, otherwise every 15 s (schedules start runs too). */
export function useRunHistory(q: HistoryKey) {
  return useQuery({
    queryKey: operationKeys.history(q),
    queryFn: ({ signal }) => fetchHistory(q, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => ((query.state.data?.running ?? 0) > 0 ? 2000 : 15_000),
  });
}
