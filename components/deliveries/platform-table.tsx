import type { PlatformRow } from "@/lib/webhooks/client";
import { Badge, HttpStatusBadge } from "@/components/ui/badge";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { ShortId } from "@/components/ui/short-id";
import { Time } from "@/components/ui/time";
import { SubscriptionLabel, type SubscriptionOption } from "./subscription-label";

/** The platform's own record of its delivery attempts, as last mirrored by a replay. */
export function PlatformTable({
  rows,
  subscriptions,
  filtered,
}: {
  rows: PlatformRow[];
  subscriptions: SubscriptionOption[];
  filtered: boolean;
}) {
  return (
    <Table caption="Platform delivery log: each attempt the platform made, newest first">
      <thead>
        <tr>
          <Th className="max-sm:hidden">Time</Th>
          <Th>Subscription</Th>
          <Th>Job</Th>
          <Th className="text-right max-sm:hidden">Attempt</Th>
          <Th>Status</Th>
          <Th className="max-sm:hidden">HTTP</Th>
          <Th className="max-sm:hidden">Delivered</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((r) => (
          <tr key={r.id}>
            <Td className="whitespace-nowrap max-sm:hidden">
              <Time iso={r.createdAt} />
            </Td>
            <Td>
              {r.subscriptionId ? (
                <SubscriptionLabel id={r.subscriptionId} subscriptions={subscriptions} eventType={r.eventType} />
              ) : (
                <span title="platform webhook id">
                  {r.eventType ?? "webhook"} <ShortId id={r.webhookId} copy={false} />
                </span>
              )}
            </Td>
            <Td>
              {r.jobId ? (
                <ShortId id={r.jobId} href={`/jobs/${encodeURIComponent(r.jobId)}`} />
              ) : (
                <span className="text-slate-500">—</span>
              )}
            </Td>
            <Td className="text-right tabular-nums max-sm:hidden">#{r.attemptNumber}</Td>
            <Td>
              <Badge
                tone={
                  r.status === "delivered" || r.status === "success" ? "good" : r.status === "pending" ? "warn" : "bad"
                }
              >
                {r.status}
              </Badge>
            </Td>
            <Td className="max-sm:hidden">
              <HttpStatusBadge status={r.httpStatus} />
            </Td>
            <Td className="whitespace-nowrap max-sm:hidden">
              <Time iso={r.deliveredAt} />
            </Td>
          </tr>
        ))}
        {rows.length === 0 && (
          <EmptyRow colSpan={7}>
            {filtered
              ? "No platform attempts match these filters."
              : "Nothing mirrored yet: a replay reads the platform's delivery log into this table."}
          </EmptyRow>
        )}
      </tbody>
    </Table>
  );
}
