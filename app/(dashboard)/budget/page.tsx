import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { budgetKeys } from "@/components/budget/query-keys";
import { PageHeader } from "@/components/empty-state";
import { getBudgetView } from "@/lib/platform";
import { BudgetClient } from "./client";

export const metadata: Metadata = { title: "API budget" };
export const dynamic = "force-dynamic";

// The first paint already has the figures (prefetched, handed down hydrated); the client keeps them live.
export default async function Page() {
  const view = await getBudgetView();
  const queries = new QueryClient();
  queries.setQueryData(budgetKeys.view(), view, { updatedAt: Date.parse(view.generatedAt) });
  return (
    <>
      <PageHeader title="API budget" />
      <HydrationBoundary state={dehydrate(queries)}>
        <BudgetClient />
      </HydrationBoundary>
    </>
  );
}
