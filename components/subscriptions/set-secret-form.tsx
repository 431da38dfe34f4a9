"use client";

import { useId, useState } from "react";
import type { SubscriptionItem } from "@/lib/subscriptions/client";
import { errorText } from "@/lib/browser/client";
import { RunProgress } from "@/components/operations/run-progress";
import { useRunBusy } from "@/components/operations/use-operation-run";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/feedback";
import { useSetSecret } from "./use-set-secret";

/**
 * For a secret rotated in the platform's own dashboard: a write-only field (never pre-filled, emptied
 * on submit whatever the outcome), then the replay of the 401s since the spike began.
 */
export function SetSecretForm({ subscription }: { subscription: SubscriptionItem }) {
  const id = useId();
  const save = useSetSecret();
  const [value, setValue] = useState("");
  const [runId, setRunId] = useState<string | null>(null);
  const running = useRunBusy(runId);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const secret = value;
    setValue("");
    save.mutate({ subscriptionId: subscription.id, secret }, { onSuccess: (r) => setRunId(r.runId) });
  }

  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-slate-700">Set a secret rotated elsewhere</summary>
      <form onSubmit={submit} className="mt-2 flex flex-wrap items-end gap-2" autoComplete="off">
        <label className="flex flex-col gap-1" htmlFor={`${id}-secret`}>
          <span>New secret for {subscription.eventType}</span>
          <input
            id={`${id}-secret`}
            name="new-webhook-secret"
            type="password"
            autoComplete="new-password"
            spellCheck={false}
            required
            minLength={8}
            maxLength={1000}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-describedby={`${id}-help`}
            className="w-72 max-w-full rounded border border-slate-300 px-2 py-1 font-mono"
          />
        </label>
        <Button
          type="submit"
          pending={save.isPending || running}
          pendingLabel={running ? "Replaying…" : "Saving…"}
          disabled={value.length < 8}
        >
          Save and replay 401s
        </Button>
        <p id={`${id}-help`} className="w-full text-xs text-slate-600">
          Paste the secret shown by the platform. Tally stores it, then replays the deliveries refused since the 401s
          began.
        </p>
      </form>
      {save.error && (
        <div className="mt-2">
          <ErrorNotice title="The secret was not saved" message={errorText(save.error)} />
        </div>
      )}
      {runId && <RunProgress runId={runId} title="New secret and replay" />}
    </details>
  );
}
