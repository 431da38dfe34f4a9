import type { InboundRow } from "@/lib/webhooks/client";
import { HttpStatusBadge } from "@/components/ui/badge";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { ShortId } from "@/components/ui/short-id";
import { Time } from "@/components/ui/time";
import { SubscriptionLabel, type SubscriptionOption } from "./subscription-label";

/** What Tally's receiver answered to each request, newest first. */
export function InboundTable({
  rows,
  subscriptions,
  filtered,
}: {
  rows: InboundRow[];
  subscriptions: SubscriptionOption[];
  filtered: boolean;
}) {
  return (
    <Table caption="Inbound deliveries: what the receiver answered, newest first">
      <thead>
        <tr>
          <Th className="max-sm:hidden">Time</Th>
          <Th>Subscription</Th>
          <Th>Job</Th>
          <Th>Answer</Th>
          <Th className="max-sm:hidden">Reason</Th>
          <Th className="text-right max-sm:hidden">Latency</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((r) => (
          <tr key={r.id}>
            <Td className="whitespace-nowrap max-sm:hidden">
              <Time iso={r.receivedAt} />
            </Td>
            <Td>
              <SubscriptionLabel id={r.subscriptionId} subscriptions={subscriptions} eventType={r.eventType} />
              <div className="text-xs text-slate-500 sm:hidden">
                <Time iso={r.receivedAt} />
              </div>
            </Td>
            <Td>
              {r.jobId ? (
                <ShortId id={r.jobId} href={`/jobs/${encodeURIComponent(r.jobId)}`} />
              ) : (
                <span className="text-slate-500">—</span>
              )}
            </Td>
            <Td>
              <HttpStatusBadge status={r.status} />
            </Td>
            <Td className="text-xs max-sm:hidden">{r.reason ?? ""}</Td>
            <Td className="text-right tabular-nums max-sm:hidden">{r.latencyMs} ms</Td>
          </tr>
        ))}
        {rows.length === 0 && (
          <EmptyRow colSpan={6}>
            {filtered ? "No inbound deliveries match these filters." : "No deliveries have reached the receiver yet."}
          </EmptyRow>
        )}
      </tbody>
    </Table>
  );
}
