import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { PageHeader } from "@/components/empty-state";
import { overviewKeys } from "@/components/overview/query-keys";
import { getOverview } from "@/lib/overview";
import { OverviewClient } from "./client";

export const metadata: Metadata = { title: "Overview" };
export const dynamic = "force-dynamic";

// The first paint already has the figures (prefetched, handed down hydrated); the client keeps them live.
export default async function Page() {
  const overview = await getOverview();
  const queries = new QueryClient();
  // as old as the figures are, so the first refresh comes when they are due, not at hydration
  queries.setQueryData(overviewKeys.summary(), overview, { updatedAt: Date.parse(overview.generatedAt) });
  return (
    <>
      <PageHeader title="Overview" />
      <HydrationBoundary state={dehydrate(queries)}>
        <OverviewClient />
      </HydrationBoundary>
    </>
  );
}
