import type { DeadLetterListQuery } from "@/lib/dead-letters";

// Query keys for dead letters; actions invalidate deadLetterKeys.all (every filtered list and count).
export const deadLetterKeys = {
  all: ["dead-letters"] as const,
  lists: () => [...deadLetterKeys.all, "list"] as const,
  list: (q: DeadLetterListQuery) => [...deadLetterKeys.lists(), q] as const,
};

/** The query string for a list request or a page URL; empty values are left out. */
export function deadLetterSearch(q: Partial<DeadLetterListQuery>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q))
    if (v !== undefined && v !== "" && !(k === "limit" && v === 50)) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : "";
}
