"use client";

import { useId, useState } from "react";
import { errorText } from "@/lib/browser/client";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/feedback";
import { RunProgress } from "./run-progress";
import { useRunBusy } from "./use-operation-run";
import { useStartReconcile } from "./use-start-reconcile";

/** "Run reconciliation now" (recent or full), with optional threshold and start date, then the run's live progress. */
export function ReconcilePanel() {
  const id = useId();
  const start = useStartReconcile();
  const [runId, setRunId] = useState<string | null>(null);
  const running = useRunBusy(runId);
  const [olderThan, setOlderThan] = useState("");
  const [since, setSince] = useState("");
  const [scope, setScope] = useState<"recent" | "full">("recent");

  function submit(e: React.FormEvent) {
    e.preventDefault();
    start.mutate(
      {
        scope,
        ...(olderThan !== "" ? { olderThanSeconds: Number(olderThan) } : {}),
        ...(since !== "" ? { since: new Date(since).toISOString() } : {}),
      },
      {
        onSuccess: ({ runId: started }) => setRunId(started),
      },
    );
  }

  return (
    <form onSubmit={submit} aria-describedby={`${id}-help`}>
      <p id={`${id}-help`} className="mb-3 text-sm text-slate-600">
        Lists the platform&apos;s jobs and processes every settled one whose outcome is missing here: dropped webhooks,
        early webhooks, crashed workers. Also checks that the subscriptions still point at Tally.
      </p>
      <fieldset className="mb-3 text-sm">
        <legend className="mb-1 text-slate-700">Scope</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-1">
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name={`${id}-scope`}
              value="recent"
              checked={scope === "recent"}
              onChange={() => setScope("recent")}
            />
            <span>Recent: jobs created since the last complete pass (a few pages)</span>
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name={`${id}-scope`}
              value="full"
              checked={scope === "full"}
              onChange={() => setScope("full")}
            />
            <span>Full: the platform&apos;s whole job history (one page per 100 jobs)</span>
          </label>
        </div>
      </fieldset>
      <details className="mb-3 text-sm">
        <summary className="cursor-pointer text-slate-700">Options</summary>
        <div className="mt-2 flex flex-wrap gap-4">
          <label className="flex flex-col gap-1" htmlFor={`${id}-older`}>
            <span>Only jobs settled at least this many seconds ago</span>
            <input
              id={`${id}-older`}
              type="number"
              min={0}
              max={604800}
              inputMode="numeric"
              placeholder="default"
              value={olderThan}
              onChange={(e) => setOlderThan(e.target.value)}
              className="w-40 rounded border border-slate-300 px-2 py-1"
            />
          </label>
          <label className="flex flex-col gap-1" htmlFor={`${id}-since`}>
            <span>Only jobs created since</span>
            <input
              id={`${id}-since`}
              type="datetime-local"
              value={since}
              onChange={(e) => setSince(e.target.value)}
              className="rounded border border-slate-300 px-2 py-1"
            />
          </label>
        </div>
      </details>
      <Button
        type="submit"
        pending={start.isPending || running}
        pendingLabel={start.isPending ? "Starting…" : "Reconciling…"}
      >
        Run reconciliation now
      </Button>
      {start.error && (
        <div className="mt-3">
          <ErrorNotice title="Reconciliation did not start" message={errorText(start.error)} />
        </div>
      )}
      {runId && <RunProgress runId={runId} title="Reconciliation" />}
    </form>
  );
}
