import { Badge } from "@/components/ui/badge";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { AlertEventView, NotificationView } from "@/lib/alerts/contracts";

function Delivery({ n }: { n: NotificationView }) {
  const tone = n.status === "sent" ? "good" : n.status === "failed" ? "bad" : "warn";
  const label = n.status === "retrying" ? `retrying (${n.attempts} tried)` : n.status;
  return (
    <li className="text-xs">
      <span className="font-medium">{n.channel}</span> <Badge tone={tone}>{label}</Badge>
      {n.lastError && <div className="break-words text-red-700">{n.lastError}</div>}
    </li>
  );
}

/** Firings, repeats, resolves and tests, newest first, with what each channel did with them. */
export function HistoryTable({ events }: { events: AlertEventView[] }) {
  return (
    <Table caption="Alert history with each channel's delivery result">
      <thead>
        <tr>
          <Th>When</Th>
          <Th>Rule</Th>
          <Th>State</Th>
          <Th className="min-w-64">Summary</Th>
          <Th>Channels</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {events.length === 0 && <EmptyRow colSpan={5}>No alert has fired yet.</EmptyRow>}
        {events.map((e) => (
          <tr key={e.id} data-testid="alert-event">
            <Td className="whitespace-nowrap text-xs">
              <Time iso={e.at} />
            </Td>
            <Td className="font-mono text-xs">{e.rule}</Td>
            <Td>
              <Badge tone={e.state === "firing" ? (e.kind === "test" ? "info" : "bad") : "good"}>{e.kind === "alert" ? e.state : `${e.state} (${e.kind})`}</Badge>
            </Td>
            <Td className="break-words text-xs text-slate-700">{e.summary}</Td>
            <Td>
              {e.notifications.length === 0 ? (
                <span className="text-xs text-slate-500">no channel configured</span>
              ) : (
                <ul className="space-y-1">
                  {e.notifications.map((n) => (
                    <Delivery key={n.channel} n={n} />
                  ))}
                </ul>
              )}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
