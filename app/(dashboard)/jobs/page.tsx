import type { Metadata } from "next";
import { PageHeader } from "@/components/empty-state";
import { listJobsPage, parseJobsSearch } from "@/lib/jobs/list";
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
      <PageHeader title="Jobs" />
      <JobsClient params={params} page={page} problems={problems} />
    </>
  );
}
