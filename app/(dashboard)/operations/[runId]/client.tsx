"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { PageHeader } from "@/components/empty-state";
import { duration } from "@/components/operations/run-history";
import { RunDescription } from "@/components/operations/run-description";
import { RunFacts } from "@/components/operations/run-facts";
import { RunStateBadge } from "@/components/operations/run-progress";
import { operationKeys } from "@/components/operations/query-keys";
import { fetchRun } from "@/components/operations/use-operation-run";
import { Card } from "@/components/ui/card";
import { ErrorNotice, PageSkeleton } from "@/components/ui/feedback";
import { ShortId } from "@/components/ui/short-id";
import { Time, useFormatTime } from "@/components/ui/time";
import { errorText } from "@/lib/browser/client";
import { describeRun, type Run, type SubscriptionName } from "@/lib/operations/client";

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-sm">{children}</dd>
    </div>
  );
}

/** One run: what was asked, by whom, live progress while it runs, then the result in words. */
export function RunDetailClient({ runId, subscriptions }: { runId: string; subscriptions: SubscriptionName[] }) {
  const { data: run, error } = useQuery<Run>({
    queryKey: operationKeys.run(runId),
    queryFn: ({ signal }) => fetchRun(runId, signal),
    refetchInterval: (q) => (q.state.data?.state === "running" ? 1000 : false),
  });
  const formatTime = useFormatTime();
  if (!run) return error ? <ErrorNotice title="Could not load the run" message={errorText(error)} /> : <PageSkeleton />;
  const d = describeRun(run, subscriptions, formatTime);
  const started = run.startedAt ?? null;
  const finished = run.finishedAt ?? null;
  return (
    <div className="min-w-0 space-y-4">
      <Link href="/operations" className="text-sm text-brand-600 underline">
        ← Operations
      </Link>
      <PageHeader title={d.title}>
        <RunStateBadge state={run.state} />
      </PageHeader>
      <Card title="What was asked">
        <p className="text-sm" data-testid="run-asked">
          {d.asked}
        </p>
        <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Fact label="Started by">
            <span data-testid="run-started-by">
              {d.by.runId ? (
                <>
                  {d.by.before}
                  <Link href={`/operations/${encodeURIComponent(d.by.runId)}`} className="text-brand-600 underline">
                    {d.by.linkText}
                  </Link>
                  {d.by.after}
                </>
              ) : (
                d.by.text
              )}
            </span>
          </Fact>
          <Fact label="Started">
            <Time iso={started} />
          </Fact>
          <Fact label={finished ? "Took" : "Running for"}>
            {finished && started ? duration(Date.parse(finished) - Date.parse(started)) : <span>…</span>}
          </Fact>
          <Fact label="Run">
            <ShortId id={run.id} />
          </Fact>
        </dl>
      </Card>
      <Card title={run.state === "running" ? "Progress (live)" : "Result"}>
        <div aria-live="polite" aria-busy={run.state === "running"}>
          <RunDescription d={d} />
        </div>
        <details className="mt-4 text-xs text-slate-600">
          <summary className="cursor-pointer">Every recorded figure</summary>
          <div className="mt-2">
            <RunFacts value={run.state === "running" ? run.progress : (run.summary ?? run.progress)} />
          </div>
        </details>
      </Card>
    </div>
  );
}
