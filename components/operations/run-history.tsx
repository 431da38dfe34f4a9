"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { describeRun, type HistoryRow, RUN_KINDS } from "@/lib/operations/client";
import { errorText } from "@/lib/browser/client";
import { CursorPager, useCursorStack } from "@/components/ui/cursor-pager";
import { ErrorNotice } from "@/components/ui/feedback";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { Time, useFormatTime } from "@/components/ui/time";
import { RunStateBadge } from "./run-progress";
import { useRunHistory } from "./use-run-history";

export function duration(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function Row({ run }: { run: HistoryRow }) {
  const d = describeRun(run, [], useFormatTime());
  return (
    <tr>
      <Td className="font-medium">
        <Link
          href={`/operations/${encodeURIComponent(run.id)}`}
          className="text-brand-600 underline"
          data-testid="run-link"
        >
          {d.title}
        </Link>
        <div className="mt-1 sm:hidden">
          <RunStateBadge state={run.state} />
        </div>
      </Td>
      <Td className="max-sm:hidden">
        <RunStateBadge state={run.state} />
      </Td>
      <Td className="max-sm:hidden">{d.by.short ?? d.by.text}</Td>
      <Td className="whitespace-nowrap max-sm:hidden">
        <Time iso={run.startedAt} />
      </Td>
      <Td className="whitespace-nowrap tabular-nums max-sm:hidden">
        {run.state === "running" ? "running…" : duration(run.durationMs)}
      </Td>
      <Td className="text-xs text-slate-700 sm:min-w-48">{d.sentences[0] ?? ""}</Td>
    </tr>
  );
}

/** Runs of every kind, newest first; refreshes itself while any of them runs. */
export function RunHistory() {
  const id = useId();
  const [kind, setKind] = useState("");
  const pages = useCursorStack(kind);
  const { data, error, isFetching } = useRunHistory({ kind: kind || undefined, cursor: pages.cursor });
  return (
    <div>
      <div className="mb-2 flex flex-wrap items-center gap-2 text-sm">
        <label htmlFor={`${id}-kind`}>Kind</label>
        <select
          id={`${id}-kind`}
          value={kind}
          onChange={(e) => setKind(e.target.value)}
          className="rounded border border-slate-300 px-2 py-1"
        >
          <option value="">all</option>
          {RUN_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        {data && data.running > 0 && (
          <span className="text-sky-700" role="status">
            {data.running} running · refreshing every 2 s
          </span>
        )}
      </div>
      {error && <ErrorNotice title="Could not load the runs" message={errorText(error)} />}
      <Table caption="Operation runs, newest first">
        <thead>
          <tr>
            <Th>Run</Th>
            <Th className="max-sm:hidden">State</Th>
            <Th className="max-sm:hidden">Started by</Th>
            <Th className="max-sm:hidden">Started</Th>
            <Th className="max-sm:hidden">Duration</Th>
            <Th>Result</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {data?.items.map((run) => (
            <Row key={run.id} run={run} />
          ))}
          {data && data.items.length === 0 && (
            <EmptyRow colSpan={6}>No runs yet. Reconciliation, replays, rotations and polls appear here.</EmptyRow>
          )}
        </tbody>
      </Table>
      <CursorPager
        label="Runs"
        page={pages.page}
        nextCursor={data?.nextCursor}
        onOlder={pages.older}
        onNewer={pages.newer}
        onNewest={pages.newest}
        busy={isFetching && !data}
      />
    </div>
  );
}
