import type { Metadata } from "next";
import { EmptyState, PageHeader } from "@/components/empty-state";

export const metadata: Metadata = { title: "Deliveries" };

export default function Page() {
  return (
    <>
      <PageHeader title="Deliveries" />
      <EmptyState title="No deliveries have reached the receiver yet." />
    </>
  );
}
