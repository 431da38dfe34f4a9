"use client";

import { Can } from "@/components/auth/role-context";
import { useState } from "react";
import { type Spike, SPIKE_WINDOW_MINUTES } from "@/lib/subscriptions/client";
import { errorText } from "@/lib/browser/client";
import { RunProgress } from "@/components/operations/run-progress";
import { useRunBusy } from "@/components/operations/use-operation-run";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/feedback";
import { Time } from "@/components/ui/time";
import { useReplay401s } from "./use-replay-401s";

/** "the extract_completed subscription “shop pages”": which of several, in the words people gave it. */
export function subscriptionName(s: { eventType: string; description: string | null }): string {
  return `the ${s.eventType} subscription${s.description ? ` “${s.description}”` : ""}`;
}

/**
 * A subscription whose deliveries are being refused right now, with the one-click fix. Once a replay
 * started here the banner is held (ongoing = false after the spike passed) so its outcome stays readable.
 */
export function SpikeBanner({
  spike,
  ongoing,
  onStarted,
  onDismiss,
}: {
  spike: Spike;
  ongoing: boolean;
  onStarted: (s: Spike) => void;
  onDismiss: () => void;
}) {
  const replay = useReplay401s();
  const [runId, setRunId] = useState<string | null>(null);
  const running = useRunBusy(runId);
  return (
    <div
      role={ongoing ? "alert" : "status"}
      className={`rounded-lg border p-3 text-sm ${ongoing ? "border-red-300 bg-red-50 text-red-900" : "border-emerald-200 bg-emerald-50 text-emerald-900"}`}
    >
      <p className="font-semibold">
        {ongoing ? `401 spike on ${subscriptionName(spike)}` : `The 401 spike on ${subscriptionName(spike)} has passed`}
      </p>
      <p className="font-mono text-xs wrap-anywhere" title={spike.subscriptionId}>
        {spike.url} · {spike.subscriptionId}
      </p>
      <p>
        {spike.recent} deliveries refused in the last {SPIKE_WINDOW_MINUTES} minutes, since <Time iso={spike.since} />.
        {spike.lastRotationAt ? (
          <>
            {" "}
            The secret was last rotated <Time iso={spike.lastRotationAt} relative />.
          </>
        ) : null}{" "}
        Usually the platform signs with a secret Tally does not have yet: rotate here, or set the secret rotated
        elsewhere, then replay.
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <Can role="operator">
          <Button
            variant="danger"
            pending={replay.isPending || running}
            pendingLabel={running ? "Replaying…" : "Starting…"}
            onClick={() =>
              replay.mutate(spike.subscriptionId, {
                onSuccess: (r) => {
                  setRunId(r.runId);
                  onStarted(spike);
                },
              })
            }
          >
            Replay 401s since rotation
          </Button>
        </Can>
        {!ongoing && (
          <Button variant="ghost" onClick={onDismiss}>
            Dismiss
          </Button>
        )}
      </div>
      {replay.error && (
        <div className="mt-2">
          <ErrorNotice title="The replay did not start" message={errorText(replay.error)} />
        </div>
      )}
      {runId && <RunProgress runId={runId} title={`Replay of the 401s of ${subscriptionName(spike)}`} />}
    </div>
  );
}
