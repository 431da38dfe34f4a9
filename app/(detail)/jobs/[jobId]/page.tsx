import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireOperator, seesInternalDetail } from "@/lib/auth";
import { getJobDetail, jobIdSchema } from "@/lib/jobs";
import { NotFound } from "@/lib/errors";
import { JobDetailClient } from "./client";

export const dynamic = "force-dynamic";

type Params = Promise<{ jobId: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { jobId } = await params;
  return { title: `Job ${jobId.slice(0, 40)}` };
}

export default async function Page({ params }: { params: Params }) {
  const parsed = jobIdSchema.safeParse((await params).jobId);
  if (!parsed.success) notFound();
  const me = await requireOperator();
  const detail = await getJobDetail(parsed.data, { detail: seesInternalDetail(me.role) }).catch((err: unknown) => {
    if (err instanceof NotFound) notFound();
    throw err;
  });
  return <JobDetailClient detail={detail} />;
}
