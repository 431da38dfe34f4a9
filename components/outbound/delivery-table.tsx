"use client";

import type { DeliveryRow } from "@/lib/outbound/client";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { ShortId } from "@/components/ui/short-id";
import { Time } from "@/components/ui/time";
import { AttemptHistory } from "./attempt-history";
import { destinationHost, LastAnswer, ReplayButton, StatusBadge } from "./delivery-parts";

const JobLink = ({ id }: { id: string }) => <ShortId id={id} href={`/jobs/${encodeURIComponent(id)}`} />;

/** Outbound deliveries, newest first: one row per event and destination (a list on narrow screens). */
export function DeliveryTable({ rows, filtered }: { rows: DeliveryRow[]; filtered: boolean }) {
  const empty = filtered
    ? "No deliveries match these filters."
    : "No events sent yet. Add a destination, and each job outcome from then on is sent to it.";
  return (
    <>
      <div className="hidden md:block">
        <Table caption="Outbound deliveries">
          <thead>
            <tr>
              <Th>Time</Th>
              <Th>Destination</Th>
              <Th>Event · job</Th>
              <Th>Status</Th>
              <Th className="text-right">Attempts</Th>
              <Th>Last answer</Th>
              <Th>Next retry</Th>
              <Th>Action</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => (
              <tr key={r.id} data-testid="outbound-row" data-job={r.jobId} data-status={r.status}>
                <Td className="whitespace-nowrap">
                  <Time iso={r.createdAt} />
                </Td>
                <Td className="max-w-48 break-all font-mono text-xs">
                  <span title={r.destinationUrl}>{destinationHost(r.destinationUrl)}</span>
                </Td>
                <Td className="text-xs">
                  <div>{r.eventType}</div>
                  <JobLink id={r.jobId} />
                </Td>
                <Td>
                  <StatusBadge row={r} />
                </Td>
                <Td className="text-right">
                  <AttemptHistory deliveryId={r.id} attempts={r.attempts} />
                </Td>
                <Td className="text-xs">
                  <LastAnswer row={r} />
                </Td>
                <Td className="whitespace-nowrap text-xs">
                  {r.status === "retrying" ? <Time iso={r.nextAttemptAt} /> : <span className="text-slate-500">—</span>}
                </Td>
                <Td>
                  <ReplayButton row={r} />
                </Td>
              </tr>
            ))}
            {rows.length === 0 && <EmptyRow colSpan={8}>{empty}</EmptyRow>}
          </tbody>
        </Table>
      </div>
      <ul className="space-y-2 md:hidden" aria-label="Outbound deliveries">
        {rows.map((r) => (
          <li
            key={r.id}
            data-testid="outbound-item"
            data-job={r.jobId}
            data-status={r.status}
            className="min-w-0 rounded-lg border border-slate-200 bg-white p-3 text-sm"
          >
            <div className="flex flex-wrap items-center gap-2">
              <StatusBadge row={r} />
              <span className="text-xs">{r.eventType}</span>
            </div>
            <div className="mt-1 text-xs">
              <JobLink id={r.jobId} />
            </div>
            <div className="mt-1 break-all font-mono text-xs text-slate-600">{destinationHost(r.destinationUrl)}</div>
            <div className="mt-1 flex flex-wrap gap-1 text-xs text-slate-600">
              <Time iso={r.createdAt} /> · attempts <AttemptHistory deliveryId={r.id} attempts={r.attempts} />
            </div>
            <div className="mt-1 text-xs">
              <LastAnswer row={r} />
            </div>
            {r.status === "retrying" && (
              <div className="mt-1 text-xs text-slate-600">
                next retry <Time iso={r.nextAttemptAt} />
              </div>
            )}
            <div className="mt-2">
              <ReplayButton row={r} />
            </div>
          </li>
        ))}
        {rows.length === 0 && (
          <li className="rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-500">
            {empty}
          </li>
        )}
      </ul>
    </>
  );
}
