import Link from "next/link";
import { EmptyState, PageHeader } from "@/components/empty-state";

export default function DiffNotFound() {
  return (
    <>
      <PageHeader title="What changed" />
      <EmptyState title="No diff for this address.">
        Open it from a collection run&apos;s changed URLs: it needs the run&apos;s id and <code>?url=</code> one of that
        run&apos;s URLs, and this run or URL is unknown.{" "}
        <Link href="/runs" className="underline">
          Back to runs
        </Link>
      </EmptyState>
    </>
  );
}
