"use client";

import { useQuery } from "@tanstack/react-query";
import { getParsed } from "@/lib/browser/client";
import { urlHistorySchema } from "@/lib/collections/client";
import { collectionKeys } from "./query-keys";

/** One URL across the collection's runs (GET /api/collections/{id}/urls/history); idle without a URL. */
export function useUrlHistory(id: string, url: string | null, cursor: string | undefined) {
  const qs = new URLSearchParams({ url: url ?? "", limit: "20" });
  if (cursor) qs.set("cursor", cursor);
  return useQuery({
    queryKey: collectionKeys.urlHistory(id, url ?? "", cursor),
    queryFn: ({ signal }) =>
      getParsed(`/api/collections/${encodeURIComponent(id)}/urls/history?${qs}`, urlHistorySchema, signal),
    enabled: url !== null,
  });
}
