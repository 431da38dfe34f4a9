"use client";

import Link from "next/link";
import { Can } from "@/components/auth/role-context";
import { PageHeader } from "@/components/empty-state";
import { RunActions } from "@/components/runs/run-actions";
import { etaText, RunProgress, runStateTone } from "@/components/runs/run-progress";
import { RunChanges } from "@/components/runs/run-changes";
import { RunChecks } from "@/components/runs/run-checks";
import { RunSpend } from "@/components/runs/run-spend";
import { RunUrls } from "@/components/runs/run-urls";
import { useRun } from "@/components/runs/use-runs";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { ErrorNotice, Notice, Skeleton } from "@/components/ui/feedback";
import { Time } from "@/components/ui/time";
import { errorText } from "@/lib/browser/client";

function Figure({ label, value, hint }: { label: string; value: React.ReactNode; hint?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">{value}</dd>
      {hint && <dd className="text-xs text-slate-500">{hint}</dd>}
    </div>
  );
}

export function RunDetailClient({ runId }: { runId: string }) {
  const q = useRun(runId);
  const run = q.data;
  if (!run) {
    return q.error ? (
      <ErrorNotice title="Could not load the run" message={errorText(q.error)} />
    ) : (
      <Skeleton className="h-40 w-full" />
    );
  }
  const active = run.state === "submitting" || run.state === "running";
  const perUrl = run.total > 0 ? (run.platformCalls / run.total).toFixed(3) : "0";
  return (
    <div className="min-w-0 space-y-4">
      <Link href="/runs" className="text-sm text-brand-600 underline">
        ← Runs
      </Link>
      <PageHeader title={run.name}>
        <Badge tone={runStateTone(run.state)}>{run.state}</Badge>
      </PageHeader>
      {q.error && <ErrorNotice title="Could not refresh the run" message={errorText(q.error)} />}
      {run.duplicateSubmits > 0 && (
        <Notice tone="warn">
          The platform received {run.duplicateSubmits} batch{run.duplicateSubmits === 1 ? "" : "es"} of this run twice
          (an answer was lost and the first copy could not be found in time). Each URL is still counted and stored once
          in the run; the extra copies cost platform requests.
        </Notice>
      )}
      <Card title="Progress">
        <RunProgress counts={run.counts} total={run.total} />
        <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6">
          <Figure label="URLs" value={run.total.toLocaleString("en")} />
          <Figure
            label="Final"
            value={`${Math.floor(((run.counts.stored + run.counts.failed) / Math.max(run.total, 1)) * 100)}%`}
          />
          <Figure label="ETA" value={active ? etaText(run.etaSeconds) : "—"} />
          <Figure label="Batches sent" value={`${run.chunks.submitted} of ${run.chunks.total}`} />
          <Figure label="Platform calls" value={run.platformCalls.toLocaleString("en")} hint={`${perUrl} per URL`} />
          <Figure label="Sent twice" value={run.duplicateSubmits} />
        </dl>
        <p className="mt-3 text-xs text-slate-600">
          Created by {run.createdBy} <Time iso={run.createdAt} relative />
          {run.duplicates > 0 && (
            <>
              {" "}
              · {run.duplicates.toLocaleString("en")} {run.duplicates === 1 ? "duplicate" : "duplicates"} in the list
              sent once
            </>
          )}
          {run.invalid > 0 && <> · {run.invalid.toLocaleString("en")} invalid lines skipped</>}
          {run.completedAt && (
            <>
              {" "}
              · {run.state} <Time iso={run.completedAt} relative />
            </>
          )}
        </p>
      </Card>
      <RunSpend run={run} />
      <RunChecks run={run} />
      {run.collectionId && (
        <Card title="Changes since the previous run">
          {run.changes ? (
            <RunChanges runId={run.id} counts={run.changes} />
          ) : (
            <p className="text-sm text-slate-600">
              Compared with the collection&apos;s previous run once this run completes.
            </p>
          )}
          <p className="mt-2 text-xs text-slate-600">
            <Link href={`/collections/${run.collectionId}`} className="underline">
              The collection
            </Link>{" "}
            · started by {run.trigger === "schedule" ? "its schedule" : "hand"}
          </p>
        </Card>
      )}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <Can role="operator">
          <RunActions run={run} />
        </Can>
        <div className="flex flex-wrap gap-2 text-sm">
          <a
            href={`/api/runs/${run.id}/export?format=csv`}
            className="rounded border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-100"
          >
            Download CSV
          </a>
          <a
            href={`/api/runs/${run.id}/export?format=jsonl`}
            className="rounded border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-100"
          >
            Download JSON Lines
          </a>
        </div>
      </div>
      <Card title="URLs">
        <RunUrls
          runId={run.id}
          collectionId={run.collectionId}
          follow={active}
          initialState={run.counts.suspect > 0 ? "suspect" : run.counts.failed > 0 ? "failed" : undefined}
        />
      </Card>
    </div>
  );
}
