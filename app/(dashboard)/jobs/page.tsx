import type { Metadata } from "next";
import { EmptyState, PageHeader } from "@/components/empty-state";

export const metadata: Metadata = { title: "Jobs" };

export default function Page() {
  return (
    <>
      <PageHeader title="Jobs" />
      <EmptyState title="No jobs yet. Jobs appear here as they are submitted or heard of." />
    </>
  );
}
