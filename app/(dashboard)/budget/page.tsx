import type { Metadata } from "next";
import { PageHeader } from "@/components/empty-state";
import { getBudgetView } from "@/lib/api-budget/view";
import { BudgetClient } from "./client";

export const metadata: Metadata = { title: "API budget" };
export const dynamic = "force-dynamic";

// The first paint already has the figures; the client then keeps them live.
export default async function Page() {
  const initial = await getBudgetView();
  return (
    <>
      <PageHeader title="API budget" />
      <BudgetClient initial={initial} />
    </>
  );
}
