import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import Link from "next/link";
import { Can } from "@/components/auth/role-context";
import { PageHeader } from "@/components/empty-state";
import { runKeys } from "@/components/runs/query-keys";
import { listRuns } from "@/lib/runs";
import { RunsClient } from "./client";

export const metadata: Metadata = { title: "Runs" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const queries = new QueryClient();
  queries.setQueryData(runKeys.list(undefined), await listRuns({ limit: 25 }));
  return (
    <>
      <PageHeader title="Runs">
        <Can role="operator">
          <Link
            href="/runs/new"
            className="rounded bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
          >
            New run
          </Link>
        </Can>
      </PageHeader>
      <p className="-mt-2 mb-4 max-w-3xl text-sm text-slate-600">
        A run is a list of URLs handed over as one unit: Tally sends it in batches of up to 1,000, retries what failed
        for a passing reason, and accounts for every URL until it is stored or failed with its reason.
      </p>
      <HydrationBoundary state={dehydrate(queries)}>
        <RunsClient />
      </HydrationBoundary>
    </>
  );
}
