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

/** A labelled choice of one subscription or all of them, for the filters and the replay form. */
export function SubscriptionSelect({ id, value, onChange, subscriptions, className }: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  subscriptions: SubscriptionOption[];
  className: string;
}) {
  return (
    <label className="flex flex-col gap-1" htmlFor={id}>
      <span>Subscription</span>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={className}>
        <option value="">all subscriptions</option>
        {subscriptions.map((s) => <option key={s.id} value={s.id}>{s.eventType} ({s.id.slice(-6)})</option>)}
      </select>
    </label>
  );
}
