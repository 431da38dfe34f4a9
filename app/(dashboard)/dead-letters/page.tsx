import type { Metadata } from "next";
import { EmptyState, PageHeader } from "@/components/empty-state";

export const metadata: Metadata = { title: "Dead letters" };

export default function Page() {
  return (
    <>
      <PageHeader title="Dead letters" />
      <EmptyState title="No dead letters. Jobs that cannot be stored land here." />
    </>
  );
}
