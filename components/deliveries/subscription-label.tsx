// How a subscription id is shown in the logs: its event type when known, and the id's tail.

export type SubscriptionOption = { id: string; eventType: string };

export function SubscriptionLabel({ id, subscriptions }: { id: string | null; subscriptions: SubscriptionOption[] }) {
  if (!id) return <span className="text-slate-400">none</span>;
  const sub = subscriptions.find((s) => s.id === id);
  return (
    <span title={id}>
      {sub ? sub.eventType : "unknown"} <span className="font-mono text-xs text-slate-500">…{id.slice(-6)}</span>
    </span>
  );
}
