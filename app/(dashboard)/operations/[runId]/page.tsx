import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { operationKeys } from "@/components/operations/query-keys";
import { getRun, runParamsSchema, runSchema } from "@/lib/operations";
import { listSubscriptions } from "@/lib/subscriptions";
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
  const queries = new QueryClient();
  queries.setQueryData(operationKeys.run(parsed.data.runId), runSchema.parse(run));
  return (
    <HydrationBoundary state={dehydrate(queries)}>
      <RunDetailClient
        runId={parsed.data.runId}
        subscriptions={subscriptions.map((s) => ({ id: s.id, eventType: s.eventType }))}
      />
    </HydrationBoundary>
  );
}
