// Query keys of the Runs pages; actions invalidate runKeys.all (lists, runs, URL pages).
export const runKeys = {
  all: ["runs"] as const,
  list: (cursor: string | undefined) => [...runKeys.all, "list", cursor ?? null] as const,
  detail: (id: string) => [...runKeys.all, "detail", id] as const,
  urls: (id: string, state: string | undefined, cursor: string | undefined) =>
    [...runKeys.all, "urls", id, state ?? null, cursor ?? null] as const,
  /** Every URL page of a run (its filters and pages), to refresh them together. */
  allUrls: (id: string) => [...runKeys.all, "urls", id] as const,
};
