import type { Metadata } from "next";
import { PageHeader } from "@/components/empty-state";
import { alertsView } from "@/lib/alerts/view";
import { requireOperator } from "@/lib/auth/current";
import { AlertsClient } from "./client";

export const metadata: Metadata = { title: "Alerts" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const me = await requireOperator();
  const initial = await alertsView(me.role);
  return (
    <>
      <PageHeader title="Alerts" />
      <AlertsClient initial={initial} />
    </>
  );
}
