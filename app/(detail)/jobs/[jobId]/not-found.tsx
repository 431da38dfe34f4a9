import Link from "next/link";
import { EmptyState, PageHeader } from "@/components/empty-state";

export default function JobNotFound() {
  return (
    <>
      <PageHeader title="Job not found" />
      <EmptyState title="Tally knows no job with this id.">
        It may not have been submitted or heard of yet; reconciliation adds jobs the platform knows.{" "}
        <Link href="/jobs" className="underline">
          Back to jobs
        </Link>
      </EmptyState>
    </>
  );
}
