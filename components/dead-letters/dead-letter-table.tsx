import Link from "next/link";
import { Badge, OutcomeBadge } from "@/components/ui/badge";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { ShortId } from "@/components/ui/short-id";
import { Time } from "@/components/ui/time";
import { SafeUrl } from "@/components/jobs/safe-url";
import type { DeadLetterRow } from "@/lib/dead-letters";

const STATE_TONE = { open: "bad", retried: "info", discarded: "neutral" } as const;
const stateTone = (s: string) => (s === "open" || s === "retried" || s === "discarded" ? STATE_TONE[s] : "neutral");

export function DeadLetterTable({
  rows,
  selected,
  onToggle,
  onToggleAll,
}: {
  rows: DeadLetterRow[];
  selected: ReadonlySet<number>;
  onToggle: (id: number) => void;
  onToggleAll: (ids: number[], on: boolean) => void;
}) {
  const open = rows.filter((r) => r.state === "open").map((r) => r.id);
  const allOn = open.length > 0 && open.every((id) => selected.has(id));
  return (
    <Table caption="Dead letters">
      <thead>
        <tr>
          <Th>
            <input
              type="checkbox"
              aria-label="Select every open dead letter on this page"
              checked={allOn}
              disabled={open.length === 0}
              onChange={(e) => onToggleAll(open, e.target.checked)}
            />
          </Th>
          <Th className="max-sm:hidden">Dead since</Th>
          <Th>Job</Th>
          <Th>Error</Th>
          <Th className="max-sm:hidden">Attempts</Th>
          <Th>State</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.length === 0 && (
          <EmptyRow colSpan={6}>No dead letters match. Jobs that cannot be stored land here.</EmptyRow>
        )}
        {rows.map((r) => (
          <tr key={r.id} data-testid={`dead-letter-${r.id}`} data-job={r.jobId ?? undefined}>
            <Td>
              <input
                type="checkbox"
                aria-label={`Select dead letter ${r.id}${r.jobId ? ` for job ${r.jobId}` : ""}`}
                checked={selected.has(r.id)}
                disabled={r.state !== "open"}
                onChange={() => onToggle(r.id)}
              />
            </Td>
            <Td className="whitespace-nowrap max-sm:hidden">
              <Time iso={r.createdAt} />
            </Td>
            <Td className="max-w-xs">
              {r.jobId ? (
                <ShortId id={r.jobId} href={`/jobs/${encodeURIComponent(r.jobId)}`} />
              ) : (
                <span className="text-slate-500">queue item {r.queueItemId ?? "?"}</span>
              )}
              <div className="mt-1 flex flex-wrap items-center gap-1 text-xs text-slate-600">
                <span>{r.job?.kind ?? r.kind}</span>
                {r.job && <OutcomeBadge outcome={r.job.outcome} />}
                {r.job?.resubmittedAsId && (
                  <Link
                    href={`/jobs/${encodeURIComponent(r.job.resubmittedAsId)}`}
                    className="text-brand-600 underline"
                  >
                    resubmitted as {r.job.resubmittedAsId.slice(0, 8)}…
                  </Link>
                )}
              </div>
              {r.job?.url && (
                <div className="mt-1 max-w-[14rem] text-xs sm:max-w-xs">
                  <SafeUrl url={r.job.url} truncate />
                </div>
              )}
            </Td>
            <Td className="max-w-md sm:min-w-60">
              {r.errorCode && <Badge tone="bad">{r.errorCode}</Badge>}
              <p className="mt-1 whitespace-pre-wrap break-words text-xs text-slate-700">{r.errorMessage}</p>
            </Td>
            <Td className="tabular-nums max-sm:hidden">{r.attempts}</Td>
            <Td className="max-w-xs">
              <Badge tone={stateTone(r.state)}>{r.state}</Badge>
              {r.resolution && (
                <p className="mt-1 whitespace-pre-wrap break-words text-xs text-slate-600" data-testid="resolution">
                  {r.resolution}
                </p>
              )}
              {r.resolvedBy && (
                <p className="text-xs text-slate-500">
                  by {r.resolvedBy}, <Time iso={r.resolvedAt} relative />
                </p>
              )}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
