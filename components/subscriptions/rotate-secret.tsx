"use client";

import { useState } from "react";
import type { SubscriptionItem } from "@/lib/subscriptions/client";
import { errorText } from "@/lib/browser/client";
import { RunProgress } from "@/components/operations/run-progress";
import { useRunBusy } from "@/components/operations/use-operation-run";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNotice } from "@/components/ui/feedback";
import { OneTimeSecret } from "./one-time-secret";
import { unstoredSecret, useRotateSecret } from "./use-rotate-secret";

/** Rotate secret: confirm, rotate on the platform, show the new secret once, follow the replay of the gap's 401s. */
export function RotateSecret({ subscription }: { subscription: SubscriptionItem }) {
  const rotate = useRotateSecret();
  const [confirming, setConfirming] = useState(false);
  const [secret, setSecret] = useState<{ value: string; warning?: string } | null>(null);
  const [runId, setRunId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const running = useRunBusy(runId);

  function confirm() {
    setFailure(null);
    rotate.mutate(subscription.id, {
      onSuccess: (r) => {
        setRunId(r.runId);
        setSecret(r.secret ? { value: r.secret } : null);
        setConfirming(false);
        rotate.reset();
      },
      onError: (err) => {
        const value = unstoredSecret(err);
        if (value) {
          setSecret({
            value,
            warning:
              "Tally could NOT store it, and the platform already uses it. Copy it, then enter it under “Set a secret rotated elsewhere”.",
          });
        }
        setFailure(errorText(err));
        setConfirming(false);
        rotate.reset();
      },
    });
  }

  return (
    <div>
      <Button
        variant="secondary"
        onClick={() => setConfirming(true)}
        pending={rotate.isPending || running}
        pendingLabel={running ? "Replaying the gap…" : "Rotating…"}
      >
        Rotate secret
      </Button>
      {confirming && (
        <ConfirmDialog
          open
          title={`Rotate the secret of ${subscription.eventType}?`}
          confirmLabel="Rotate secret"
          tone="danger"
          pending={rotate.isPending}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        >
          <p>
            The platform issues a new signing secret and Tally stores it at once. The old one keeps working for a few
            minutes for deliveries already on their way; any delivery refused in the gap is replayed automatically.
          </p>
          <p className="mt-2">The new secret is shown once, here, right after.</p>
        </ConfirmDialog>
      )}
      {failure && (
        <div className="mt-3">
          <ErrorNotice title="Rotation failed" message={failure} />
        </div>
      )}
      {secret && <OneTimeSecret secret={secret.value} warning={secret.warning} onDismiss={() => setSecret(null)} />}
      {runId && <RunProgress runId={runId} title="Rotation and replay of the gap" />}
    </div>
  );
}
