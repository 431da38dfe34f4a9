import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { PageHeader } from "@/components/empty-state";
import { deliveryKeys } from "@/components/deliveries/query-keys";
import { deliveriesPage, parseDeliveryFilter } from "@/lib/webhooks";
import { DeliveriesClient } from "./client";

export const metadata: Metadata = { title: "Deliveries" };

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { filter, problem } = parseDeliveryFilter(await searchParams);
  const data = await deliveriesPage(filter);
  const queries = new QueryClient();
  queries.setQueryData(deliveryKeys.inbound(filter), data.inbound);
  queries.setQueryData(deliveryKeys.platform(filter), data.platform);
  return (
    <>
      <PageHeader title="Deliveries" />
      <HydrationBoundary state={dehydrate(queries)}>
        <DeliveriesClient filter={filter} filterProblem={problem} subscriptions={data.subscriptions} />
      </HydrationBoundary>
    </>
  );
}
