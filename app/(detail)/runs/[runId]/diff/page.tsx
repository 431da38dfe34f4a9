import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { PageHeader } from "@/components/empty-state";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { ErrorNotice } from "@/components/ui/feedback";
import { DiffNotices } from "@/components/collections/diff-notices";
import { RevealedText } from "@/components/collections/revealed-text";
import { countInvisible } from "@/components/jobs/safe-text";
import { requireOperator, seesInternalDetail } from "@/lib/auth";
import { diffUrl } from "@/lib/collections";
import { Conflict, NotFound } from "@/lib/errors";

export const metadata: Metadata = { title: "What changed" };
export const dynamic = "force-dynamic";

const STYLE = {
  added: "bg-emerald-50 text-emerald-900",
  removed: "bg-red-50 text-red-900",
  same: "text-slate-700",
} as const;
const MARK = { added: "+", removed: "-", same: " " } as const;

// Scraped content is untrusted: every line is React text inside <pre>, never HTML, with its invisible
// and bidirectional characters shown as marked escapes (components/jobs/safe-text.ts), as code review
// tools do. The diff is bounded (lib/judging/line-diff.ts) and the page says when it is cut.
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
  const url = z
    .string()
    .min(1)
    .max(4096)
    .safeParse((await searchParams).url);
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
    d = await diffUrl(runId.data, url.data, { detail: seesInternalDetail(me.role) });
  } catch (err) {
    if (err instanceof NotFound) notFound();
    if (err instanceof Conflict) return refusal("No changes to show", err.message);
    throw err;
  }
  if (d.bodyErrors.length > 0) return refusal("A page body cannot be read", d.bodyErrors.join("; "));
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
      <DiffNotices cut={d.cut} invisible={d.lines.reduce((n, l) => n + countInvisible(l.text), 0)} />
      <Card title={`Line diff (result ${d.previousResultId ?? "—"} → ${d.resultId ?? "—"})`}>
        <pre
          className="max-h-[70vh] overflow-auto whitespace-pre-wrap break-all font-mono text-xs"
          data-testid="diff"
          tabIndex={0}
          aria-label="Line diff"
        >
          {d.lines.map((l, i) => (
            <div key={i} className={STYLE[l.kind]}>
              {MARK[l.kind]} <RevealedText text={l.text} />
            </div>
          ))}
        </pre>
      </Card>
    </div>
  );
}
