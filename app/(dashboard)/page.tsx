import type { Metadata } from "next";
import { PageHeader } from "@/components/empty-state";
import { getOverview } from "@/lib/overview/overview";
import { OverviewClient } from "./client";

export const metadata: Metadata = { title: "Overview" };
export const dynamic = "force-dynamic";

// The first paint already has the figures; the client then keeps them live.
export default async function Page() {
  const initial = await getOverview();
  return (
    <>
      <PageHeader title="Overview" />
      <OverviewClient initial={initial} />
    </>
  );
}
