import { Badge, OutcomeBadge } from "@/components/ui/badge";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { ShortId } from "@/components/ui/short-id";
import { Time } from "@/components/ui/time";
import type { JobRow } from "@/lib/jobs";
import { SafeUrl } from "./safe-url";

const STATUS_TONE: Record<string, "good" | "bad" | "warn" | "info" | "neutral"> = {
  completed: "good",
  failed: "bad",
  processing: "info",
  queued: "warn",
  cancelled: "neutral",
};

/** How Tally first heard of a job, in words. */
export const ORIGIN: Record<string, string> = {
  submitted: "submitted here",
  webhook: "heard of by webhook",
  poll: "found by polling",
  reconcile: "found by reconciliation",
  replay: "found by a replay",
  retry: "retried from a dead letter",
};

export function PlatformStatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONE[status] ?? "neutral"}>{status}</Badge>;
}

export function JobsTable({ rows, filtered }: { rows: JobRow[]; filtered: boolean }) {
  return (
    <Table caption="Jobs">
      <thead>
        <tr>
          <Th className="max-sm:hidden">Created</Th>
          <Th>Job</Th>
          <Th className="max-sm:hidden">URL</Th>
          <Th className="max-sm:hidden">Platform</Th>
          <Th>Outcome</Th>
          <Th className="text-right max-xl:hidden">Attempts</Th>
          <Th className="text-right max-sm:hidden">Results</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.length === 0 && (
          <EmptyRow colSpan={7}>
            {filtered
              ? "No jobs match these filters."
              : "No jobs yet. Jobs appear here as they are submitted or heard of."}
          </EmptyRow>
        )}
        {rows.map((j) => (
          <tr key={j.id}>
            <Td className="whitespace-nowrap max-sm:hidden">
              <Time iso={j.createdAt} />
            </Td>
            <Td className="max-sm:max-w-[14rem]">
              <ShortId id={j.id} href={`/jobs/${encodeURIComponent(j.id)}`} />
              <div className="text-xs text-slate-500">
                {j.kind} · {ORIGIN[j.origin] ?? `heard of through ${j.origin}`}
                {j.resubmittedFromId && " · resubmission"}
              </div>
              {/* on a phone the URL and time sit under the id instead of in their own columns */}
              <div className="mt-1 text-xs sm:hidden">
                <SafeUrl url={j.url} truncate />
                <div className="text-slate-500">
                  <Time iso={j.createdAt} />
                </div>
              </div>
            </Td>
            <Td className="max-w-sm text-xs max-sm:hidden lg:max-xl:max-w-56">
              <SafeUrl url={j.url} truncate />
            </Td>
            <Td className="max-sm:hidden">
              <PlatformStatusBadge status={j.platformStatus} />
              {j.errorCode && <div className="mt-1 break-all text-xs text-red-700">{j.errorCode}</div>}
            </Td>
            <Td>
              <OutcomeBadge outcome={j.outcome} />
            </Td>
            <Td className="text-right tabular-nums max-xl:hidden">{j.attempts}</Td>
            <Td className="text-right tabular-nums max-sm:hidden">
              {j.resultCount}
              {j.itemsFailed > 0 && (
                <div className="text-xs text-amber-800" title="items the platform reported failed">
                  {j.itemsFailed} failed
                </div>
              )}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
