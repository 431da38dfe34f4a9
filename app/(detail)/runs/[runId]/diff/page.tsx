import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { PageHeader } from "@/components/empty-state";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { ErrorNotice } from "@/components/ui/feedback";
import { DiffBlocks } from "@/components/collections/diff-blocks";
import { DiffNotices } from "@/components/collections/diff-notices";
import { RevealedText } from "@/components/collections/revealed-text";
import { countInvisible } from "@/components/jobs/safe-text";
import { requireOperator, seesInternalDetail } from "@/lib/auth";
import { diffUrl } from "@/lib/collections";
import { Conflict, NotFound } from "@/lib/errors";

export const metadata: Metadata = { title: "What changed" };
export const dynamic = "force-dynamic";

const n = (x: number) => x.toLocaleString("en-US");

// Scraped content is untrusted: every line is React text inside <pre>, never HTML, with its invisible
// and bidirectional characters shown as marked escapes (components/jobs/safe-text.ts), as code review
// tools do. The diff is bounded (lib/judging/line-diff.ts) and the page says when it is cut. It shows the
// changes with a few lines around each (?all=1: the whole page), as components/collections/diff-blocks.tsx.
export default async function Page({
  params,
  searchParams,
}: {
  params: Promise<{ runId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const runId = z
    .string()
    .min(1)
    .max(100)
    .safeParse((await params).runId);
  const query = await searchParams;
  const url = z.string().min(1).max(4096).safeParse(query.url);
  const whole = query.all === "1";
  // No url, or one the run does not have: 404, with not-found.tsx saying what to open instead.
  if (!runId.success || !url.success) notFound();
  const refusal = (title: string, message: string) => (
    <div className="min-w-0 space-y-4">
      <PageHeader title="What changed" />
      <ErrorNotice title={title} message={message} />
    </div>
  );
  let d;
  try {
    const me = await requireOperator();
    d = await diffUrl(runId.data, url.data, { detail: seesInternalDetail(me.role) }, whole ? Infinity : undefined);
  } catch (err) {
    if (err instanceof NotFound) notFound();
    if (err instanceof Conflict) return refusal("No changes to show", err.message);
    throw err;
  }
  if (d.bodyErrors.length > 0) return refusal("A page body cannot be read", d.bodyErrors.join("; "));
  const base = `/runs/${encodeURIComponent(d.runId)}/diff?url=${encodeURIComponent(d.url)}`;
  const shown = d.blocks.flatMap((b) => (b.kind === "change" ? b.lines : []));
  return (
    <div className="min-w-0 space-y-4">
      <Link href={`/runs/${d.runId}`} className="text-sm text-brand-600 underline">
        ← Run
      </Link>
      <PageHeader title="What changed">
        <Badge tone={d.change === "unchanged" ? "neutral" : "warn"}>{d.change}</Badge>
      </PageHeader>
      <p className="break-all text-sm text-slate-700">
        <RevealedText text={d.url} />
      </p>
      <DiffNotices cut={d.cut} invisible={shown.reduce((k, l) => k + countInvisible(l.text), 0)} />
      <Card title={`Line diff (result ${d.previousResultId ?? "—"} → ${d.resultId ?? "—"})`}>
        <p className="mb-3 text-sm text-slate-700" data-testid="diff-summary">
          {d.changes === 0
            ? "No line differs."
            : `${n(d.changes)} change${d.changes === 1 ? "" : "s"}: ${n(d.added)} line${d.added === 1 ? "" : "s"} added, ${n(d.removed)} removed.`}{" "}
          {d.changes > 0 && (
            <a href="#change-1" className="text-brand-600 underline">
              First change
            </a>
          )}
          {d.changes > 0 && " · "}
          <Link href={whole ? base : `${base}&all=1`} className="text-brand-600 underline">
            {whole ? "Only the changes" : "The whole page"}
          </Link>
        </p>
        <DiffBlocks blocks={d.blocks} changes={d.changes} allHref={`${base}&all=1`} />
      </Card>
    </div>
  );
}
