import { useQuery } from "@tanstack/react-query";
import { getParsed } from "@/lib/browser/parsed";
import { budgetViewSchema, type BudgetView } from "@/lib/api-budget/contracts";
import { budgetKeys } from "./query-keys";

export const BUDGET_REFRESH_MS = 10_000;

/** GET /api/budget, live: the server's first answer is the initial data, then a refresh every few seconds. */
export function useBudget(initial: BudgetView) {
  return useQuery({
    queryKey: budgetKeys.view(),
    queryFn: ({ signal }) => getParsed("/api/budget", budgetViewSchema, signal),
    initialData: initial,
    initialDataUpdatedAt: Date.parse(initial.generatedAt),
    refetchInterval: BUDGET_REFRESH_MS,
  });
}
