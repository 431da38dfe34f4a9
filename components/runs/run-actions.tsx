"use client";

import { useState } from "react";
import { errorText } from "@/lib/browser/client";
import type { RunView } from "@/lib/runs/client";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNotice } from "@/components/ui/feedback";
import { useRunAction } from "./use-runs";

/** Retry failed and Cancel, each behind a confirmation that says what will happen. */
export function RunActions({ run }: { run: RunView }) {
  const [asking, setAsking] = useState<"cancel" | "retry-failed" | null>(null);
  const cancel = useRunAction(run.id, "cancel");
  const retry = useRunAction(run.id, "retry-failed");
  const active = run.state === "submitting" || run.state === "running";
  const error = cancel.error ?? retry.error;
  const notFinal = run.counts.pending + run.counts.submitted + run.counts.retrying;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        {run.counts.failed > 0 && (
          <Button variant="secondary" onClick={() => setAsking("retry-failed")} pending={retry.isPending}>
            Retry failed ({run.counts.failed.toLocaleString("en")})
          </Button>
        )}
        {active && (
          <Button variant="danger" onClick={() => setAsking("cancel")} pending={cancel.isPending}>
            Cancel run
          </Button>
        )}
      </div>
      {error && <ErrorNotice title="The action did not go through" message={errorText(error)} />}
      <ConfirmDialog
        open={asking === "retry-failed"}
        title="Retry the failed URLs?"
        confirmLabel="Retry failed"
        pending={retry.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={() => retry.mutate(undefined, { onSettled: () => setAsking(null) })}
      >
        {run.counts.failed.toLocaleString("en")} URLs go round again with a fresh retry budget, in new platform batches.
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === "cancel"}
        title="Cancel this run?"
        confirmLabel="Cancel run"
        tone="danger"
        pending={cancel.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={() => cancel.mutate(undefined, { onSettled: () => setAsking(null) })}
      >
        {notFinal.toLocaleString("en")} URLs not stored yet become failed (cancelled), and the run&apos;s batch jobs
        still running on the platform are cancelled. Stored URLs stay stored.
      </ConfirmDialog>
    </div>
  );
}
