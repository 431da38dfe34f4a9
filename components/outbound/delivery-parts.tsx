"use client";

import { useCan } from "@/components/auth/role-context";
import { type DeliveryRow, REPLAYABLE } from "@/lib/outbound/client";
import { errorText } from "@/lib/browser/client";
import { Badge, HttpStatusBadge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useReplayOutbound } from "./use-replay-outbound";

// Pieces shared by the wide table and the narrow list of outbound deliveries.

const STATUS_TONE: Record<string, Tone> = {
  pending: "info",
  retrying: "warn",
  delivered: "good",
  dead: "bad",
  skipped: "neutral",
};
const STATUS_LABEL: Record<string, string> = {
  pending: "pending",
  retrying: "failing, will retry",
  delivered: "delivered",
  dead: "dead letter",
  skipped: "skipped (disabled)",
};

export function StatusBadge({ row }: { row: DeliveryRow }) {
  return (
    <>
      <Badge tone={STATUS_TONE[row.status] ?? "neutral"}>{STATUS_LABEL[row.status] ?? row.status}</Badge>
      {row.replays > 0 && <span className="ml-1 text-xs text-slate-500">replayed {row.replays}×</span>}
    </>
  );
}

export function LastAnswer({ row }: { row: DeliveryRow }) {
  if (row.attempts === 0) return <span className="text-slate-500">not sent yet</span>;
  return (
    <span className="flex flex-col gap-1">
      <span>
        <HttpStatusBadge status={row.lastStatusCode} />
        {row.lastLatencyMs !== null && <span className="ml-2 tabular-nums text-slate-600">{row.lastLatencyMs} ms</span>}
      </span>
      {row.lastError && <span className="max-w-64 break-words text-red-800">{row.lastError}</span>}
    </span>
  );
}

export function destinationHost(url: string): string {
  try {
    const u = new URL(url);
    return u.host + (u.pathname === "/" ? "" : u.pathname);
  } catch {
    return url;
  }
}

export function ReplayButton({ row }: { row: DeliveryRow }) {
  const replay = useReplayOutbound();
  const can = useCan("operator");
  if (!can || !REPLAYABLE.includes(row.status as (typeof REPLAYABLE)[number])) return null;
  return (
    <span className="flex flex-col items-start gap-1">
      <Button
        variant="secondary"
        pending={replay.isPending}
        pendingLabel="Replaying…"
        aria-label={`Replay ${row.eventType} for job ${row.jobId}`}
        onClick={() => replay.mutate({ deliveryId: row.id })}
      >
        Replay
      </Button>
      {replay.error && (
        <span role="alert" className="text-xs text-red-700">
          {errorText(replay.error)}
        </span>
      )}
    </span>
  );
}
