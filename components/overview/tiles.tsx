import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card, Stat } from "@/components/ui/card";
import { formatCount, formatDuration, formatPercent } from "@/components/ui/figures";
import { Time, useFormatTime } from "@/components/ui/time";
import { describeRun } from "@/lib/operations/client";
import type { Overview } from "@/lib/overview/client";

// The overview's small tiles. Tones mark what needs a look: a backlog, 401s, open dead letters.

export function QueueTile({ queue }: { queue: Overview["queue"] }) {
  const behind = queue.oldestReadyAgeMs !== null && queue.oldestReadyAgeMs > 60_000;
  // Ready items are due now or later: a job not settled yet is checked again later, a failed item retried after a pause.
  const later = queue.ready - queue.dueNow;
  return (
    <Card title="Queue">
      <div className="grid grid-cols-2 gap-4">
        <Stat
          label="Due now"
          value={formatCount(queue.dueNow)}
          hint={
            later > 0
              ? `${formatCount(later)} more scheduled for later (rechecks, retries)`
              : "none scheduled for later"
          }
        />
        <Stat
          label="Oldest due item"
          value={queue.oldestReadyAgeMs === null ? "—" : formatDuration(queue.oldestReadyAgeMs)}
          tone={behind ? "warn" : "neutral"}
          hint={queue.oldestReadyAgeMs === null ? "nothing due" : "waiting for a worker"}
        />
        <Stat
          label="Being worked on"
          value={formatCount(queue.leased)}
          hint={queue.expiredLeases > 0 ? `${queue.expiredLeases} lease(s) expired` : undefined}
        />
        {/* "Dead letter" means one thing across the app: a job that needs an operator. These are queue items that ran out of attempts. */}
        <Stat
          label="Out of attempts"
          value={formatCount(queue.dead)}
          tone={queue.dead > 0 ? "warn" : "neutral"}
          hint="queue items given up; their jobs are in Dead letters"
        />
      </div>
    </Card>
  );
}

export function DeliveriesTile({ deliveries }: { deliveries: Overview["deliveries"] }) {
  const rate = deliveries.successRate;
  return (
    <Card
      title="Webhook deliveries, last hour"
      actions={
        <Link href="/deliveries" className="text-sm text-brand-600 underline">
          Deliveries
        </Link>
      }
    >
      <div className="grid grid-cols-2 gap-4">
        <Stat
          label="Accepted (2xx)"
          value={formatPercent(rate)}
          tone={rate === null ? "neutral" : rate >= 0.99 ? "good" : rate >= 0.9 ? "warn" : "bad"}
          hint={`${formatCount(deliveries.ok)} of ${formatCount(deliveries.total)}`}
        />
        <Stat
          label="Refused 401 (bad signature)"
          value={<span data-testid="unauthorized-count">{formatCount(deliveries.unauthorized)}</span>}
          tone={deliveries.unauthorized > 0 ? "bad" : "neutral"}
        />
      </div>
    </Card>
  );
}

export function DeadLettersTile({ open }: { open: number }) {
  return (
    <Card
      title="Dead letters"
      actions={
        <Link href="/dead-letters" className="text-sm text-brand-600 underline">
          Review
        </Link>
      }
    >
      <Stat
        label="Open"
        value={formatCount(open)}
        tone={open > 0 ? "bad" : "good"}
        hint={open > 0 ? "need a retry or a discard" : "nothing waiting"}
      />
    </Card>
  );
}

// The reconciler's summary counters, in words; a counter not listed here is shown by its name.
/** The last reconciliation in words (the same sentences as its run page), linked to that page. */
export function ReconcileTile({ run, className = "" }: { run: Overview["lastReconciliation"]; className?: string }) {
  const formatTime = useFormatTime();
  const d = run
    ? describeRun(
        {
          id: run.id,
          kind: "reconcile",
          state: run.state === "succeeded" || run.state === "failed" ? run.state : "running",
          startedBy: run.startedBy,
          error: run.error,
          summary: Object.fromEntries(
            run.figures.map((f) => [f.name, Number.isNaN(Number(f.value)) ? f.value : Number(f.value)]),
          ),
          progress: Object.fromEntries(
            run.figures.map((f) => [f.name, Number.isNaN(Number(f.value)) ? f.value : Number(f.value)]),
          ),
        },
        [],
        formatTime,
      )
    : null;
  return (
    <Card
      title="Last reconciliation"
      className={className}
      actions={
        <Link href="/operations" className="text-sm text-brand-600 underline">
          Operations
        </Link>
      }
    >
      {run && d ? (
        <div className="space-y-2 text-sm">
          <p className="flex flex-wrap items-center gap-2">
            <Badge tone={run.state === "succeeded" ? "good" : run.state === "failed" ? "bad" : "info"}>
              {run.state}
            </Badge>
            <Time iso={run.finishedAt ?? run.startedAt} relative />
            <span className="text-slate-500">by {d.by.text}</span>
          </p>
          {d.sentences.map((line) => (
            <p key={line} className="break-words">
              {line}
            </p>
          ))}
          <Link href={`/operations/${encodeURIComponent(run.id)}`} className="text-brand-600 underline">
            Open this run →
          </Link>
        </div>
      ) : (
        <p className="text-sm text-slate-600">No reconciliation has run yet.</p>
      )}
    </Card>
  );
}

export function PlatformStatusTile({ rows }: { rows: Overview["byPlatformStatus"] }) {
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <Card title="Jobs by platform status">
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">No jobs yet.</p>
      ) : (
        <ul className="space-y-1.5 text-sm">
          {rows.map((r) => (
            <li key={r.status} className="grid grid-cols-[7rem_1fr_4rem] items-center gap-2">
              <Link href={`/jobs?status=${encodeURIComponent(r.status)}`} className="truncate text-brand-600 underline">
                {r.status}
              </Link>
              <span aria-hidden className="h-2 rounded bg-slate-300" style={{ width: `${(r.count / max) * 100}%` }} />
              <span className="text-right tabular-nums">{formatCount(r.count)}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
