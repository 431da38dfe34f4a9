"use client";

import Link from "next/link";
import { Can } from "@/components/auth/role-context";
import { PageHeader } from "@/components/empty-state";
import { CancelJob } from "@/components/jobs/cancel-job";
import { BodiesUnavailable } from "@/components/jobs/bodies-unavailable";
import { FailedItems } from "@/components/jobs/failed-items";
import { JobSummary } from "@/components/jobs/job-summary";
import { JobTimeline } from "@/components/jobs/job-timeline";
import { LiveRefresh } from "@/components/jobs/live-refresh";
import { ResultPreview } from "@/components/result-preview";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/short-id";
import type { JobDetail } from "@/lib/jobs";

export function JobDetailClient({ detail }: { detail: JobDetail }) {
  const { job, results } = detail;
  return (
    <div className="min-w-0 space-y-4">
      <Link href="/jobs" className="text-sm text-brand-600 underline">
        ← Jobs
      </Link>
      <PageHeader title="Job">
        {/* Follows a job until it has an outcome; a settled job does not change. */}
        <LiveRefresh everyMs={job.outcome === "pending" ? 3000 : undefined} />
      </PageHeader>
      <p className="-mt-3 flex items-center font-mono text-sm text-slate-700">
        <span className="break-all" data-testid="job-id">
          {job.id}
        </span>
        <CopyButton value={job.id} />
      </p>
      {job.outcome === "pending" && (
        <Can role="operator">
          <CancelJob jobId={job.id} kind={job.kind} />
        </Can>
      )}
      <JobSummary detail={detail} />
      <FailedItems jobId={job.id} items={job.items} failed={detail.failedItems} />
      <Card title="Timeline">
        <JobTimeline entries={detail.timeline} />
      </Card>
      <section aria-labelledby="results-heading" className="space-y-3">
        <h2 id="results-heading" className="text-sm font-semibold uppercase tracking-wide text-slate-600">
          Results{" "}
          {results.total > results.shown.length
            ? `(first ${results.shown.length} of ${results.total})`
            : `(${results.total})`}
        </h2>
        <BodiesUnavailable count={results.unavailable} />
        {results.shown.length === 0 ? (
          <p className="text-sm text-slate-600">
            {job.outcome === "stored" ? "The job stored no results." : "No results stored yet."}
          </p>
        ) : (
          results.shown.map((r) => <ResultPreview key={r.id} result={r} />)
        )}
      </section>
    </div>
  );
}
