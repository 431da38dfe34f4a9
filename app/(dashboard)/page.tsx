import type { Metadata } from "next";
import { EmptyState, PageHeader } from "@/components/empty-state";

export const metadata: Metadata = { title: "Overview" };

export default function Page() {
  return (
    <>
      <PageHeader title="Overview" />
      <EmptyState title="The ledger of every job Tally knows: stored, resubmitted, dead-lettered, cancelled and pending." />
    </>
  );
}
