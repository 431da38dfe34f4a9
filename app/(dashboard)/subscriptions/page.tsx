import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { PageHeader } from "@/components/empty-state";
import { CHART_MINUTES, subscriptionKeys } from "@/components/subscriptions/query-keys";
import { subscriptionsPage } from "@/lib/subscriptions";
import { SubscriptionsClient } from "./client";

export const metadata: Metadata = { title: "Webhooks & secrets" };

export default async function Page() {
  const data = await subscriptionsPage(CHART_MINUTES);
  const queries = new QueryClient();
  queries.setQueryData(subscriptionKeys.list(), data.subscriptions);
  queries.setQueryData(subscriptionKeys.unauthorized(CHART_MINUTES), data.chart);
  return (
    <>
      <PageHeader title="Webhooks & secrets" />
      <HydrationBoundary state={dehydrate(queries)}>
        <SubscriptionsClient />
      </HydrationBoundary>
    </>
  );
}
