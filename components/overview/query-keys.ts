// Query keys for the overview; invalidate with overviewKeys.all after any action that moves its figures.
export const overviewKeys = {
  all: ["overview"] as const,
  summary: () => [...overviewKeys.all, "summary"] as const,
  throughput: (range: string) => [...overviewKeys.all, "throughput", range] as const,
};
