import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { PageHeader } from "@/components/empty-state";
import { operationKeys } from "@/components/operations/query-keys";
import { operationsPage } from "@/lib/operations";
import { OperationsClient } from "./client";

export const metadata: Metadata = { title: "Operations" };

export default async function Page() {
  const data = await operationsPage();
  const queries = new QueryClient();
  queries.setQueryData(operationKeys.history({}), data.history);
  queries.setQueryData(operationKeys.audit({}), data.audit);
  return (
    <>
      <PageHeader title="Operations" />
      <HydrationBoundary state={dehydrate(queries)}>
        <OperationsClient />
      </HydrationBoundary>
    </>
  );
}
