"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { RunView } from "@/lib/runs/client";
import { etaText, RunProgress, runStateTone } from "./run-progress";

export function RunsTable({ runs }: { runs: RunView[] }) {
  return (
    <Table caption="Runs, newest first">
      <thead>
        <tr>
          <Th>Run</Th>
          <Th className="max-sm:hidden">State</Th>
          <Th className="w-2/5 min-w-32 sm:min-w-48">Progress</Th>
          <Th className="text-right max-sm:hidden">URLs</Th>
          <Th className="hidden md:table-cell">ETA</Th>
          <Th className="hidden md:table-cell">Created</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {runs.length === 0 && <EmptyRow colSpan={6}>No runs yet.</EmptyRow>}
        {runs.map((r) => (
          <tr key={r.id}>
            <Td className="min-w-32">
              {/* Long names wrap between words, and inside one only where it must. */}
              <Link href={`/runs/${r.id}`} className="font-medium text-brand-700 underline wrap-anywhere">
                {r.name}
              </Link>
              {/* On phones the state sits under the name instead of in a column of its own. */}
              <div className="mt-1 sm:hidden">
                <Badge tone={runStateTone(r.state)}>{r.state}</Badge>
              </div>
            </Td>
            <Td className="max-sm:hidden">
              <Badge tone={runStateTone(r.state)}>{r.state}</Badge>
            </Td>
            <Td>
              <RunProgress counts={r.counts} total={r.total} legend={false} />
              <p className="mt-1 text-xs text-slate-600 tabular-nums">
                {r.counts.stored.toLocaleString("en")}
                <span className="sm:hidden"> of {r.total.toLocaleString("en")}</span> stored
                {r.counts.failed > 0 && <>, {r.counts.failed.toLocaleString("en")} failed</>}
              </p>
            </Td>
            <Td className="text-right tabular-nums max-sm:hidden">{r.total.toLocaleString("en")}</Td>
            <Td className="hidden md:table-cell tabular-nums">{etaText(r.etaSeconds)}</Td>
            <Td className="hidden md:table-cell">
              <Time iso={r.createdAt} relative />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
