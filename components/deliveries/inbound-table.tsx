import Link from "next/link";
import type { InboundRow } from "@/lib/deliveries/contracts";
import { HttpStatusBadge } from "@/components/ui/badge";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { SubscriptionLabel, type SubscriptionOption } from "./subscription-label";

/** What Tally's receiver answered to each request, newest first. */
export function InboundTable({ rows, subscriptions, filtered }: { rows: InboundRow[]; subscriptions: SubscriptionOption[]; filtered: boolean }) {
  return (
    <Table caption="Inbound deliveries: what the receiver answered, newest first">
      <thead>
        <tr><Th>Time</Th><Th>Subscription</Th><Th>Event</Th><Th>Job</Th><Th>Answer</Th><Th>Reason</Th><Th className="text-right">Latency</Th></tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((r) => (
          <tr key={r.id}>
            <Td className="whitespace-nowrap"><Time iso={r.receivedAt} /></Td>
            <Td><SubscriptionLabel id={r.subscriptionId} subscriptions={subscriptions} /></Td>
            <Td className="text-xs">{r.eventType ?? <span className="text-slate-400">—</span>}</Td>
            <Td className="font-mono text-xs">
              {r.jobId ? <Link className="text-brand-700 underline" href={`/jobs/${encodeURIComponent(r.jobId)}`}>{r.jobId}</Link> : <span className="text-slate-400">—</span>}
            </Td>
            <Td><HttpStatusBadge status={r.status} /></Td>
            <Td className="text-xs">{r.reason ?? ""}</Td>
            <Td className="text-right tabular-nums">{r.latencyMs} ms</Td>
          </tr>
        ))}
        {rows.length === 0 && (
          <EmptyRow colSpan={7}>{filtered ? "No inbound deliveries match these filters." : "No deliveries have reached the receiver yet."}</EmptyRow>
        )}
      </tbody>
    </Table>
  );
}
