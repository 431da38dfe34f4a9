import { useQuery } from "@tanstack/react-query";
import { getParsed } from "@/lib/browser/parsed";
import { budgetViewSchema, type BudgetView } from "@/lib/platform/budget-contracts";
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
