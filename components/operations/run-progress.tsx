"use client";

import Link from "next/link";
import { describeRun, type Run } from "@/lib/operations/client";
import { errorText } from "@/lib/browser/client";
import { Badge } from "@/components/ui/badge";
import { ErrorNotice } from "@/components/ui/feedback";
import { useFormatTime } from "@/components/ui/time";
import { RunDescription } from "./run-description";
import { useOperationRun } from "./use-operation-run";

const STATE_TONE = { running: "info", succeeded: "good", failed: "bad" } as const;

export function RunStateBadge({ state }: { state: Run["state"] }) {
  return <Badge tone={STATE_TONE[state]}>{state}</Badge>;
}

/** Live progress of one run, then its summary or its error; announced politely to screen readers. */
export function RunProgress({
  runId,
  title,
  onFinished,
}: {
  runId: string;
  title: string;
  onFinished?: (run: Run) => void;
}) {
  const { data: run, error } = useOperationRun(runId, onFinished);
  const formatTime = useFormatTime();
  return (
    <div
      className="mt-3 rounded-lg border border-slate-200 bg-slate-50 p-3"
      aria-live="polite"
      aria-busy={run?.state === "running"}
    >
      <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">{title}</span>
        {run ? <RunStateBadge state={run.state} /> : <Badge>starting</Badge>}
        {run?.state === "running" && (
          <span
            aria-hidden
            className="h-3 w-3 animate-spin rounded-full border-2 border-sky-600 border-t-transparent"
          />
        )}
        <Link href={`/operations/${encodeURIComponent(runId)}`} className="ml-auto text-xs text-brand-700 underline">
          Open this run
        </Link>
      </div>
      {error && !run && <ErrorNotice title="Could not follow the run" message={errorText(error)} />}
      {run?.state === "running" && !run.progress && <p className="text-sm text-slate-600">Working…</p>}
      {run?.state === "failed" && (
        <ErrorNotice title={`The ${run.kind} run failed`} message={run.error ?? "No reason was recorded."} />
      )}
      {run && (run.state !== "running" || run.progress) && <RunDescription d={describeRun(run, [], formatTime)} />}
    </div>
  );
}
