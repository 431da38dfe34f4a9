import { useQuery } from "@tanstack/react-query";
import { getParsed } from "@/lib/browser/client";
import { type BudgetView, budgetViewSchema } from "@/lib/platform/client";
import { budgetKeys } from "./query-keys";

export const BUDGET_REFRESH_MS = 10_000;

/** GET /api/budget, live: the page prefetches it (hydrated), then a refresh every few seconds. */
export function useBudget() {
  return useQuery({
    queryKey: budgetKeys.view(),
    queryFn: ({ signal }): Promise<BudgetView> => getParsed("/api/budget", budgetViewSchema, signal),
    refetchInterval: BUDGET_REFRESH_MS,
  });
}
