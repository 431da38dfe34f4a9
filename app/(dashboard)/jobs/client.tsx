"use client";

import Link from "next/link";
import { DownloadResultsLink } from "@/components/jobs/download-results-link";
import { JobFilters } from "@/components/jobs/job-filters";
import { JobsTable } from "@/components/jobs/jobs-table";
import { LiveRefresh } from "@/components/jobs/live-refresh";
import { ErrorNotice } from "@/components/ui/feedback";
import type { JobsPage } from "@/lib/jobs";

const FILTERS = ["status", "outcome", "kind", "q", "from", "to"];

function href(params: Record<string, string>, cursor?: string) {
  const next = new URLSearchParams(Object.entries(params).filter(([k]) => k !== "cursor"));
  if (cursor) next.set("cursor", cursor);
  const qs = next.toString();
  return qs ? `/jobs?${qs}` : "/jobs";
}

export function JobsClient({
  params,
  page,
  problems,
}: {
  params: Record<string, string>;
  page: JobsPage;
  problems: string[];
}) {
  const firstPage = !params.cursor;
  return (
    <div className="space-y-4">
      <JobFilters params={params} />
      {problems.length > 0 && (
        <ErrorNotice
          title="Some filters in the address were not understood and are ignored"
          message={problems.join("; ")}
        />
      )}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600">
          {page.items.length === 0
            ? "No jobs on this page."
            : `Showing ${page.items.length} job${page.items.length === 1 ? "" : "s"}`}
          {params.sort === "oldest" ? ", oldest first" : ", newest first"}
          {firstPage ? "" : " (a later page)"}.
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <DownloadResultsLink params={params} />
          {/* Only the first page follows new arrivals; a later page stays put while it is read. */}
          <LiveRefresh everyMs={firstPage ? 10_000 : undefined} />
        </div>
      </div>
      <JobsTable rows={page.items} filtered={FILTERS.some((k) => params[k])} />
      <nav aria-label="Pages" className="flex gap-4 text-sm">
        {!firstPage && (
          <Link href={href(params)} className="text-brand-600 underline">
            ← First page
          </Link>
        )}
        {page.nextCursor && (
          <Link href={href(params, page.nextCursor)} className="text-brand-600 underline" data-testid="next-page">
            Next page →
          </Link>
        )}
      </nav>
    </div>
  );
}
