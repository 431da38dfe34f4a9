// Query keys for the API budget view.
export const budgetKeys = {
  all: ["budget"] as const,
  view: () => [...budgetKeys.all, "view"] as const,
};
