import { Badge } from "@/components/ui/badge";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import type { AlertEventView, NotificationView } from "@/lib/alerts/client";

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

function StateBadge({ e }: { e: AlertEventView }) {
  if (e.kind === "test") return <Badge tone="info">test</Badge>;
  return (
    <Badge tone={e.state === "firing" ? "bad" : "good"}>{e.kind === "repeat" ? "firing (repeat)" : e.state}</Badge>
  );
}

function Deliveries({ e }: { e: AlertEventView }) {
  if (e.suppressed === "silenced") return <span className="text-xs text-slate-600">silenced: sent to no channel</span>;
  if (e.notifications.length === 0) return <span className="text-xs text-slate-500">no channel configured</span>;
  return (
    <ul className="space-y-1">
      {e.notifications.map((n) => (
        <Delivery key={n.channel} n={n} />
      ))}
    </ul>
  );
}

/** Firings, repeats, resolves and tests, newest first, with what each channel did with them. */
export function HistoryTable({ events }: { events: AlertEventView[] }) {
  return (
    <>
      <ul
        className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white md:hidden"
        aria-label="Alert history"
      >
        {events.length === 0 && <li className="p-6 text-center text-sm text-slate-500">No alert has fired yet.</li>}
        {events.map((e) => (
          <li key={e.id} className="space-y-1 p-3">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-mono text-xs font-semibold">{e.rule}</span>
              <StateBadge e={e} />
              <span className="text-xs text-slate-500">
                <Time iso={e.at} />
              </span>
            </div>
            <p className="break-words text-xs text-slate-700">{e.summary}</p>
            <Deliveries e={e} />
          </li>
        ))}
      </ul>
      <div className="hidden md:block">
        <HistoryWide events={events} />
      </div>
    </>
  );
}

function HistoryWide({ events }: { events: AlertEventView[] }) {
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
              <StateBadge e={e} />
            </Td>
            <Td className="break-words text-xs text-slate-700">{e.summary}</Td>
            <Td>
              <Deliveries e={e} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
