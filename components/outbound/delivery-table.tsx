"use client";

import Link from "next/link";
import type { DeliveryRow } from "@/lib/forwarding/contracts";
import { REPLAYABLE } from "@/lib/forwarding/contracts";
import { errorText } from "@/lib/browser/parsed";
import { Badge, HttpStatusBadge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { useReplayOutbound } from "./use-replay-outbound";

const STATUS_TONE: Record<string, Tone> = { pending: "info", retrying: "warn", delivered: "good", dead: "bad", skipped: "neutral" };
const STATUS_LABEL: Record<string, string> = { pending: "pending", retrying: "failing, will retry", delivered: "delivered", dead: "dead letter", skipped: "skipped (disabled)" };

function host(url: string): string {
  try {
    const u = new URL(url);
    return u.host + (u.pathname === "/" ? "" : u.pathname);
  } catch {
    return url;
  }
}

function ReplayButton({ row }: { row: DeliveryRow }) {
  const replay = useReplayOutbound();
  if (!REPLAYABLE.includes(row.status as (typeof REPLAYABLE)[number])) return null;
  return (
    <div className="flex flex-col items-start gap-1">
      <Button variant="secondary" pending={replay.isPending} pendingLabel="Replaying…" aria-label={`Replay ${row.eventType} for job ${row.jobId}`}
        onClick={() => replay.mutate({ deliveryId: row.id })}>
        Replay
      </Button>
      {replay.error && <span role="alert" className="text-xs text-red-700">{errorText(replay.error)}</span>}
    </div>
  );
}

/** Outbound deliveries, newest first: one row per event and destination. */
export function DeliveryTable({ rows, filtered }: { rows: DeliveryRow[]; filtered: boolean }) {
  return (
    <Table caption="Outbound deliveries">
      <thead>
        <tr>
          <Th>Time</Th><Th>Destination</Th><Th>Event · job</Th><Th>Status</Th><Th className="text-right">Attempts</Th>
          <Th>Last answer</Th><Th>Next retry</Th><Th><span className="sr-only">Actions</span></Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((r) => (
          <tr key={r.id} data-testid="outbound-row" data-job={r.jobId} data-status={r.status}>
            <Td className="whitespace-nowrap"><Time iso={r.createdAt} /></Td>
            <Td className="max-w-48 break-all font-mono text-xs" ><span title={r.destinationUrl}>{host(r.destinationUrl)}</span></Td>
            <Td className="text-xs">
              <div>{r.eventType}</div>
              <Link className="break-all font-mono text-brand-700 underline" href={`/jobs/${encodeURIComponent(r.jobId)}`}>{r.jobId}</Link>
            </Td>
            <Td>
              <Badge tone={STATUS_TONE[r.status] ?? "neutral"}>{STATUS_LABEL[r.status] ?? r.status}</Badge>
              {r.replays > 0 && <div className="mt-1 text-xs text-slate-500">replayed {r.replays}×</div>}
            </Td>
            <Td className="text-right tabular-nums">{r.attempts}</Td>
            <Td className="text-xs">
              {r.attempts === 0 ? <span className="text-slate-400">—</span> : (
                <div className="flex flex-col gap-1">
                  <span><HttpStatusBadge status={r.lastStatusCode} />{r.lastLatencyMs !== null && <span className="ml-2 tabular-nums text-slate-600">{r.lastLatencyMs} ms</span>}</span>
                  {r.lastError && <span className="max-w-64 break-words text-red-800">{r.lastError}</span>}
                </div>
              )}
            </Td>
            <Td className="whitespace-nowrap text-xs">{r.status === "retrying" ? <Time iso={r.nextAttemptAt} /> : <span className="text-slate-400">—</span>}</Td>
            <Td><ReplayButton row={r} /></Td>
          </tr>
        ))}
        {rows.length === 0 && <EmptyRow colSpan={8}>{filtered ? "No deliveries match these filters." : "No events sent yet. Add a destination, and each job outcome from then on is sent to it."}</EmptyRow>}
      </tbody>
    </Table>
  );
}
