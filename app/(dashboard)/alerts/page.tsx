import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { alertKeys } from "@/components/alerts/query-keys";
import { PageHeader } from "@/components/empty-state";
import { alertsView } from "@/lib/alerts";
import { requireOperator } from "@/lib/auth";
import { AlertsClient } from "./client";

export const metadata: Metadata = { title: "Alerts" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const me = await requireOperator();
  const queries = new QueryClient();
  queries.setQueryData(alertKeys.view(), await alertsView(me.role));
  return (
    <>
      <PageHeader title="Alerts" />
      <HydrationBoundary state={dehydrate(queries)}>
        <AlertsClient />
      </HydrationBoundary>
    </>
  );
}
