"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useId, useState } from "react";
import { errorText } from "@/lib/browser/client";
import { RunProgress } from "@/components/operations/run-progress";
import { useRunBusy } from "@/components/operations/use-operation-run";
import { useStartReplay } from "@/components/operations/use-start-replay";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/feedback";
import { deliveryKeys } from "./query-keys";
import { SubscriptionSelect, type SubscriptionOption } from "./subscription-label";

const input = "rounded border border-slate-300 bg-white px-2 py-1";

/** "Replay failures": read the platform's delivery log and reprocess every job with no 2xx attempt. */
export function ReplayPanel({ subscriptions }: { subscriptions: SubscriptionOption[] }) {
  const id = useId();
  const client = useQueryClient();
  const start = useStartReplay();
  const [subscriptionId, setSubscriptionId] = useState("");
  const [since, setSince] = useState("");
  const [runId, setRunId] = useState<string | null>(null);
  const running = useRunBusy(runId);
  // a replay refreshes the mirrored platform log, so both tables change
  const refresh = useCallback(() => void client.invalidateQueries({ queryKey: deliveryKeys.all }), [client]);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    start.mutate(
      { ...(subscriptionId ? { subscriptionId } : {}), ...(since ? { since: new Date(since).toISOString() } : {}) },
      { onSuccess: (r) => setRunId(r.runId) },
    );
  }

  return (
    <form onSubmit={submit} className="text-sm">
      <div className="flex flex-wrap items-end gap-3">
        <SubscriptionSelect
          id={`${id}-sub`}
          value={subscriptionId}
          onChange={setSubscriptionId}
          subscriptions={subscriptions}
          className={input}
        />
        <label className="flex flex-col gap-1" htmlFor={`${id}-since`}>
          <span>Since (optional)</span>
          <input
            id={`${id}-since`}
            type="datetime-local"
            value={since}
            onChange={(e) => setSince(e.target.value)}
            className={input}
          />
        </label>
        <Button
          type="submit"
          pending={start.isPending || running}
          pendingLabel={start.isPending ? "Starting…" : "Replaying…"}
        >
          Replay failures
        </Button>
      </div>
      {start.error && (
        <div className="mt-3">
          <ErrorNotice title="The replay did not start" message={errorText(start.error)} />
        </div>
      )}
      {runId && <RunProgress runId={runId} title="Replay" onFinished={refresh} />}
    </form>
  );
}
