"use client";

import { useId, useState } from "react";
import { Can } from "@/components/auth/role-context";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Time } from "@/components/ui/time";
import type { RuleView } from "@/lib/alerts/client";
import { errorText } from "@/lib/browser/client";
import { useAlertActions } from "./use-alert-actions";

// Acknowledge and silence on each rule (lib/alerts/silence.ts): what holds now, for everyone, and the
// buttons for operators. A silence is picked from a few spans, as Alertmanager's and Grafana's are.

export const SILENCE_SPANS = [
  { minutes: 60, label: "1 hour" },
  { minutes: 240, label: "4 hours" },
  { minutes: 1440, label: "1 day" },
  { minutes: 10080, label: "7 days" },
] as const;

/** "acknowledged by …", "silenced until …": what holds now, for everyone. */
export function RuleHolds({ r }: { r: RuleView }) {
  if (!r.acknowledgedAt && !r.silencedUntil) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-xs text-slate-700">
      {r.acknowledgedAt && (
        <li>
          <Badge tone="info">acknowledged</Badge> by {r.acknowledgedBy ?? "someone"},{" "}
          <Time iso={r.acknowledgedAt} relative />: no repeats until it resolves
        </li>
      )}
      {r.silencedUntil && (
        <li>
          <Badge tone="warn">silenced</Badge> until <Time iso={r.silencedUntil} /> by {r.silencedBy ?? "someone"}
          {r.silenceNote ? <span className="wrap-anywhere"> (“{r.silenceNote}”)</span> : null}: nothing is sent
        </li>
      )}
    </ul>
  );
}

export function RuleActions({ r }: { r: RuleView }) {
  return (
    <Can role="operator">
      <Actions r={r} />
    </Can>
  );
}

function Actions({ r }: { r: RuleView }) {
  const { acknowledge, silence, unsilence } = useAlertActions();
  const [open, setOpen] = useState(false);
  const [minutes, setMinutes] = useState<number>(SILENCE_SPANS[0].minutes);
  const [note, setNote] = useState("");
  const id = useId();
  const failed = acknowledge.error ?? silence.error ?? unsilence.error;
  return (
    <div className="mt-2 space-y-2">
      <div className="flex flex-wrap gap-2">
        {r.state === "firing" && !r.acknowledgedAt && (
          <Button
            variant="secondary"
            pending={acknowledge.isPending}
            pendingLabel="Acknowledging…"
            onClick={() => acknowledge.mutate(r.rule)}
            aria-label={`Acknowledge ${r.rule}`}
          >
            Acknowledge
          </Button>
        )}
        {r.silencedUntil ? (
          <Button
            variant="secondary"
            pending={unsilence.isPending}
            pendingLabel="Lifting…"
            onClick={() => unsilence.mutate(r.rule)}
            aria-label={`Lift the silence on ${r.rule}`}
          >
            Lift silence
          </Button>
        ) : (
          <Button
            variant="secondary"
            aria-expanded={open}
            aria-controls={`${id}-silence`}
            onClick={() => setOpen((o) => !o)}
            aria-label={`Silence ${r.rule}…`}
          >
            Silence…
          </Button>
        )}
      </div>
      {open && !r.silencedUntil && (
        <form
          id={`${id}-silence`}
          className="flex flex-wrap items-end gap-2 rounded border border-slate-200 bg-slate-50 p-2"
          onSubmit={(e) => {
            e.preventDefault();
            silence.mutate(
              { rule: r.rule, minutes, note: note.trim() || null },
              { onSuccess: () => (setOpen(false), setNote("")) },
            );
          }}
        >
          <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
            For
            <select
              value={minutes}
              onChange={(e) => setMinutes(Number(e.target.value))}
              className="rounded border border-slate-300 bg-white px-2 py-1 text-sm"
            >
              {SILENCE_SPANS.map((s) => (
                <option key={s.minutes} value={s.minutes}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <label className="flex min-w-40 flex-1 flex-col gap-1 text-xs font-medium text-slate-700">
            Why (optional)
            <input
              value={note}
              maxLength={200}
              onChange={(e) => setNote(e.target.value)}
              placeholder="planned maintenance"
              className="rounded border border-slate-300 bg-white px-2 py-1 text-sm"
            />
          </label>
          <Button type="submit" pending={silence.isPending} pendingLabel="Silencing…">
            Silence
          </Button>
        </form>
      )}
      {failed && (
        <p role="alert" className="text-xs text-red-700">
          {errorText(failed)}
        </p>
      )}
    </div>
  );
}
