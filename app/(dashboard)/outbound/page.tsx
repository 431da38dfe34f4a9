import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { PageHeader } from "@/components/empty-state";
import { outboundKeys } from "@/components/outbound/query-keys";
import { deliveryListQuerySchema, outboundPage } from "@/lib/outbound";
import { requireOperator } from "@/lib/auth";
import { OutboundClient } from "./client";

export const metadata: Metadata = { title: "Outbound" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  // A bad link falls back to the unfiltered list instead of an error page.
  const parsed = deliveryListQuerySchema.safeParse({ destinationId: raw.destinationId, status: raw.status });
  const query = parsed.success ? parsed.data : deliveryListQuerySchema.parse({});
  const me = await requireOperator();
  const data = await outboundPage(query, me.role);
  const queries = new QueryClient();
  queries.setQueryData(outboundKeys.destinations(), { items: data.destinations });
  queries.setQueryData(outboundKeys.health(), { items: data.health });
  queries.setQueryData(outboundKeys.deliveries(query), data.deliveries);
  return (
    <>
      <PageHeader title="Outbound" />
      <HydrationBoundary state={dehydrate(queries)}>
        <OutboundClient initialFilter={{ destinationId: query.destinationId, status: query.status }} />
      </HydrationBoundary>
    </>
  );
}
