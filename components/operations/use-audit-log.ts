"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type AuditPage, auditPageSchema } from "@/lib/audit/client";
import { getParsed } from "@/lib/browser/client";
import { operationKeys, type AuditKey } from "./query-keys";

export function fetchAudit(q: AuditKey, signal?: AbortSignal): Promise<AuditPage> {
  const p = new URLSearchParams({ limit: "20" });
  if (q.cursor) p.set("cursor", q.cursor);
  if (q.actor) p.set("actor", q.actor);
  return getParsed(`/api/audit?${p}`, auditPageSchema, signal);
}

export function useAuditLog(q: AuditKey) {
  return useQuery({
    queryKey: operationKeys.audit(q),
    queryFn: ({ signal }) => fetchAudit(q, signal),
    placeholderData: keepPreviousData,
    refetchInterval: q.cursor ? false : 10_000,
  });
}
