import type { Metadata } from "next";
import { EmptyState, PageHeader } from "@/components/empty-state";

export const metadata: Metadata = { title: "Operations" };

export default function Page() {
  return (
    <>
      <PageHeader title="Operations" />
      <EmptyState title="No operation runs yet." />
    </>
  );
}
