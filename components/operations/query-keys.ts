// Query keys of the operations feature; shared by the server page (prefetch) and the hooks.

export type HistoryKey = { kind?: string; cursor?: string };
export type AuditKey = { cursor?: string; actor?: string };

export const operationKeys = {
  all: ["operations"] as const,
  run: (runId: string) => [...operationKeys.all, "run", runId] as const,
  histories: () => [...operationKeys.all, "history"] as const,
  history: (q: HistoryKey) =>
    [...operationKeys.histories(), { kind: q.kind ?? null, cursor: q.cursor ?? null }] as const,
  audits: () => [...operationKeys.all, "audit"] as const,
  audit: (q: AuditKey) => [...operationKeys.audits(), { cursor: q.cursor ?? null, actor: q.actor || null }] as const,
};
