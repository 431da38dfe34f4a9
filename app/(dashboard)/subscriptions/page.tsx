import type { Metadata } from "next";
import { EmptyState, PageHeader } from "@/components/empty-state";

export const metadata: Metadata = { title: "Webhooks & secrets" };

export default function Page() {
  return (
    <>
      <PageHeader title="Webhooks & secrets" />
      <EmptyState title="No webhook subscriptions are registered yet." />
    </>
  );
}
