import Link from "next/link";
import { Badge, OutcomeBadge } from "@/components/ui/badge";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { JobRow } from "@/lib/jobs/list";
import { SafeUrl } from "./safe-url";

const STATUS_TONE: Record<string, "good" | "bad" | "warn" | "info" | "neutral"> = {
  completed: "good",
  failed: "bad",
  processing: "info",
  queued: "warn",
  cancelled: "neutral",
};

export function PlatformStatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONE[status] ?? "neutral"}>{status}</Badge>;
}

export function JobsTable({ rows, filtered }: { rows: JobRow[]; filtered: boolean }) {
  return (
    <Table caption="Jobs">
      <thead>
        <tr>
          <Th>Created</Th>
          <Th>Job</Th>
          <Th>URL</Th>
          <Th>Platform</Th>
          <Th>Outcome</Th>
          <Th className="text-right">Attempts</Th>
          <Th className="text-right">Results</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.length === 0 && (
          <EmptyRow colSpan={7}>{filtered ? "No jobs match these filters." : "No jobs yet. Jobs appear here as they are submitted or heard of."}</EmptyRow>
        )}
        {rows.map((j) => (
          <tr key={j.id}>
            <Td className="whitespace-nowrap">
              <Time iso={j.createdAt} />
            </Td>
            <Td>
              <Link href={`/jobs/${encodeURIComponent(j.id)}`} className="break-all font-mono text-xs text-brand-600 underline">
                {j.id}
              </Link>
              <div className="text-xs text-slate-500">
                {j.kind} · via {j.origin}
                {j.resubmittedFromId && " · resubmission"}
              </div>
            </Td>
            <Td className="max-w-sm text-xs">
              <SafeUrl url={j.url} />
            </Td>
            <Td>
              <PlatformStatusBadge status={j.platformStatus} />
              {j.errorCode && <div className="mt-1 break-all text-xs text-red-700">{j.errorCode}</div>}
            </Td>
            <Td>
              <OutcomeBadge outcome={j.outcome} />
            </Td>
            <Td className="text-right tabular-nums">{j.attempts}</Td>
            <Td className="text-right tabular-nums">{j.resultCount}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
