import Link from "next/link";
import type { PlatformRow } from "@/lib/deliveries/contracts";
import { Badge, HttpStatusBadge } from "@/components/ui/badge";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { SubscriptionLabel, type SubscriptionOption } from "./subscription-label";

/** The platform's own record of its delivery attempts, as last mirrored by a replay. */
export function PlatformTable({ rows, subscriptions, filtered }: { rows: PlatformRow[]; subscriptions: SubscriptionOption[]; filtered: boolean }) {
  return (
    <Table caption="Platform delivery log: each attempt the platform made, newest first">
      <thead>
        <tr><Th>Time</Th><Th>Subscription</Th><Th>Event</Th><Th>Job</Th><Th className="text-right">Attempt</Th><Th>Status</Th><Th>HTTP</Th><Th>Delivered</Th></tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((r) => (
          <tr key={r.id}>
            <Td className="whitespace-nowrap"><Time iso={r.createdAt} /></Td>
            <Td>{r.subscriptionId ? <SubscriptionLabel id={r.subscriptionId} subscriptions={subscriptions} /> : <span className="font-mono text-xs" title="platform webhook id">{r.webhookId}</span>}</Td>
            <Td className="text-xs">{r.eventType ?? <span className="text-slate-400">—</span>}</Td>
            <Td className="font-mono text-xs">
              {r.jobId ? <Link className="text-brand-700 underline" href={`/jobs/${encodeURIComponent(r.jobId)}`}>{r.jobId}</Link> : <span className="text-slate-400">—</span>}
            </Td>
            <Td className="text-right tabular-nums">#{r.attemptNumber}</Td>
            <Td><Badge tone={r.status === "delivered" || r.status === "success" ? "good" : r.status === "pending" ? "warn" : "bad"}>{r.status}</Badge></Td>
            <Td><HttpStatusBadge status={r.httpStatus} /></Td>
            <Td className="whitespace-nowrap"><Time iso={r.deliveredAt} /></Td>
          </tr>
        ))}
        {rows.length === 0 && (
          <EmptyRow colSpan={8}>
            {filtered ? "No platform attempts match these filters." : "Nothing mirrored yet: a replay reads the platform's delivery log into this table."}
          </EmptyRow>
        )}
      </tbody>
    </Table>
  );
}
