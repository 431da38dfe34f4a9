"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { errorText } from "@/lib/browser/client";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNotice, Notice } from "@/components/ui/feedback";
import { useCancelJob } from "./use-cancel-job";

/** Cancel a queued or running batch or crawl job on the platform (extract jobs cannot be cancelled there). */
export function CancelJob({ jobId, kind }: { jobId: string; kind: string }) {
  const router = useRouter();
  const [asking, setAsking] = useState(false);
  const cancel = useCancelJob();
  if (kind === "extract") {
    return (
      <p className="text-xs text-slate-500">
        Extract jobs cannot be cancelled on the platform; this one finishes on its own.
      </p>
    );
  }
  return (
    <div className="space-y-2">
      <Button variant="danger" pending={cancel.isPending} pendingLabel="Cancelling…" onClick={() => setAsking(true)}>
        Cancel job
      </Button>
      {cancel.error && <ErrorNotice title="The job was not cancelled" message={errorText(cancel.error)} />}
      {cancel.data && (
        <Notice tone="good">
          Cancelled on the platform
          {cancel.data.inFlight
            ? `; ${cancel.data.inFlight} item${cancel.data.inFlight === 1 ? "" : "s"} already running will finish`
            : ""}
          .
        </Notice>
      )}
      <ConfirmDialog
        open={asking}
        title="Cancel this job?"
        confirmLabel="Cancel job"
        tone="danger"
        pending={cancel.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          cancel.mutate(jobId, { onSettled: () => router.refresh() });
        }}
      >
        The platform stops scheduling its remaining {kind === "batch" ? "URLs" : "pages"}; results already stored are
        kept and the outcome becomes “cancelled”.
      </ConfirmDialog>
    </div>
  );
}
