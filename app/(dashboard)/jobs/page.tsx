import Link from "next/link";
import { Can } from "@/components/auth/role-context";
import type { Metadata } from "next";
import { PageHeader } from "@/components/empty-state";
import { listJobsPage, parseJobsSearch } from "@/lib/jobs";
import { JobsClient } from "./client";

export const metadata: Metadata = { title: "Jobs" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const { query, params, problems } = parseJobsSearch(raw);
  const page = await listJobsPage(query);
  return (
    <>
      <PageHeader title="Jobs">
        <Can role="operator">
          <Link
            href="/jobs/new"
            className="rounded bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
          >
            New job
          </Link>
        </Can>
      </PageHeader>
      <JobsClient params={params} page={page} problems={problems} />
    </>
  );
}
