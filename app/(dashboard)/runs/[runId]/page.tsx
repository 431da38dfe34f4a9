import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { runKeys } from "@/components/runs/query-keys";
import { NotFound } from "@/lib/errors";
import { getRun } from "@/lib/runs";
import { RunDetailClient } from "./client";

export const metadata: Metadata = { title: "Run" };
export const dynamic = "force-dynamic";

type Params = Promise<{ runId: string }>;

export default async function Page({ params }: { params: Params }) {
  const parsed = z
    .string()
    .min(1)
    .max(100)
    .safeParse((await params).runId);
  if (!parsed.success) notFound();
  const run = await getRun(parsed.data).catch((err: unknown) => {
    if (err instanceof NotFound) notFound();
    throw err;
  });
  const queries = new QueryClient();
  queries.setQueryData(runKeys.detail(run.id), run);
  return (
    <HydrationBoundary state={dehydrate(queries)}>
      <RunDetailClient runId={run.id} />
    </HydrationBoundary>
  );
}
