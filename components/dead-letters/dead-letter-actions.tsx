"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ErrorNotice } from "@/components/ui/feedback";
import { formatCount } from "@/components/ui/figures";
import type { ActionSummary, DeadLetterFilter } from "@/lib/dead-letters";
import { ActionResult } from "./action-result";
import { useDiscardDeadLetters } from "./use-discard-dead-letters";
import { useRetryDeadLetters } from "./use-retry-dead-letters";

type Pending = { action: "retry" | "discard"; scope: "selected" | "filter" } | null;

// The action bar: retry or discard the selected rows, or every open row the filter matches. Each
// asks first, saying how many rows it will touch; "all matching" sends that count along, and the
// server refuses (409) if the set changed in between.

export function DeadLetterActions({
  filter,
  total,
  selected,
  onDone,
}: {
  filter: DeadLetterFilter;
  total: number;
  selected: number[];
  onDone: () => void;
}) {
  const [pending, setPending] = useState<Pending>(null);
  const [reason, setReason] = useState("");
  const [summary, setSummary] = useState<ActionSummary | null>(null);
  const retry = useRetryDeadLetters();
  const discard = useDiscardDeadLetters();
  const mutation = pending?.action === "discard" ? discard : retry;
  const canBulk = filter.state === "open" && total > 0;
  const count = pending?.scope === "filter" ? total : selected.length;
  const noun = `${formatCount(count)} dead letter${count === 1 ? "" : "s"}`;
  const reasonOk = reason.trim().length >= 3;

  function ask(next: NonNullable<Pending>) {
    retry.reset();
    discard.reset();
    setPending(next);
  }

  function confirm() {
    if (!pending) return;
    const matching = { kind: filter.kind, errorCode: filter.errorCode, jobId: filter.jobId };
    const selection = pending.scope === "filter" ? { filter: matching, expectedCount: total } : { ids: selected };
    const done = (s: ActionSummary) => {
      setSummary(s);
      setPending(null);
      setReason("");
      onDone();
    };
    if (pending.action === "retry") retry.mutate(selection, { onSuccess: done });
    else if (reasonOk) discard.mutate({ ...selection, reason: reason.trim() }, { onSuccess: done });
  }

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Actions on dead letters">
        <span className="text-sm text-slate-700" aria-live="polite">
          {selected.length} selected
        </span>
        <Button onClick={() => ask({ action: "retry", scope: "selected" })} disabled={selected.length === 0}>
          Retry selected
        </Button>
        <Button
          variant="secondary"
          onClick={() => ask({ action: "discard", scope: "selected" })}
          disabled={selected.length === 0}
        >
          Discard selected…
        </Button>
        {canBulk && (
          <>
            <span className="mx-1 hidden h-5 w-px bg-slate-300 sm:inline-block" aria-hidden />
            <Button variant="secondary" onClick={() => ask({ action: "retry", scope: "filter" })}>
              Retry all {formatCount(total)} matching…
            </Button>
            <Button variant="secondary" onClick={() => ask({ action: "discard", scope: "filter" })}>
              Discard all {formatCount(total)} matching…
            </Button>
          </>
        )}
        {filter.state !== "open" && (
          <span className="text-xs text-slate-500">Only open dead letters can be retried or discarded.</span>
        )}
      </div>
      {summary && <ActionResult summary={summary} />}
      <ConfirmDialog
        open={pending !== null}
        title={pending?.action === "discard" ? `Discard ${noun}?` : `Retry ${noun}?`}
        confirmLabel={pending?.action === "discard" ? `Discard ${formatCount(count)}` : `Retry ${formatCount(count)}`}
        tone={pending?.action === "discard" ? "danger" : "primary"}
        pending={mutation.isPending}
        confirmDisabled={pending?.action === "discard" && !reasonOk}
        onConfirm={confirm}
        onCancel={() => !mutation.isPending && setPending(null)}
      >
        {pending?.scope === "filter" && (
          <p className="mb-2">This acts on every open dead letter the current filter matches, on every page.</p>
        )}
        {pending?.action === "retry" ? (
          <p>
            Jobs the platform failed are submitted again as new jobs (linked both ways); jobs whose processing gave up
            are queued again. Rows changed by someone else meanwhile are skipped.
          </p>
        ) : (
          <label className="block">
            <span className="font-medium">Reason (kept with each dead letter and in the audit log)</span>
            <textarea
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              required
              minLength={3}
              maxLength={500}
              rows={3}
              className="mt-1 w-full rounded border border-slate-300 p-2"
              aria-invalid={reason.length > 0 && !reasonOk}
            />
            {!reasonOk && <span className="text-xs text-slate-500">At least 3 characters.</span>}
          </label>
        )}
        {mutation.error && (
          <div className="mt-3">
            <ErrorNotice
              title={pending?.action === "discard" ? "Discard failed" : "Retry failed"}
              message={mutation.error.message}
            />
          </div>
        )}
      </ConfirmDialog>
    </div>
  );
}
