import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { runParamsSchema, runSchema } from "@/lib/operations/contracts";
import { getRun } from "@/lib/operations/view";
import { listSubscriptions } from "@/lib/subscriptions/list";
import { RunDetailClient } from "./client";

export const dynamic = "force-dynamic";

type Params = Promise<{ runId: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { runId } = await params;
  return { title: `Run ${runId.slice(0, 8)}` };
}

export default async function Page({ params }: { params: Params }) {
  const parsed = runParamsSchema.safeParse(await params);
  if (!parsed.success) notFound();
  const [run, subscriptions] = await Promise.all([getRun(parsed.data.runId), listSubscriptions()]);
  if (!run) notFound();
  return (
    <RunDetailClient
      initial={runSchema.parse(run)}
      subscriptions={subscriptions.map((s) => ({ id: s.id, eventType: s.eventType }))}
    />
  );
}
