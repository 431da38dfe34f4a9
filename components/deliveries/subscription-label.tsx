// How a subscription id is shown in the logs: its event type when known, and the id's tail.

export type SubscriptionOption = { id: string; eventType: string };

/** By its event type (the name operators know it by); the id on hover. A delivery's own event type names an unknown id. */
export function SubscriptionLabel({
  id,
  subscriptions,
  eventType,
}: {
  id: string | null;
  subscriptions: SubscriptionOption[];
  eventType?: string | null;
}) {
  if (!id) return <span className="text-slate-500">{eventType ?? "none"}</span>;
  const sub = subscriptions.find((s) => s.id === id);
  return (
    <span title={`subscription ${id}`}>{sub?.eventType ?? eventType ?? `unknown subscription ${id.slice(0, 8)}`}</span>
  );
}

/** A labelled choice of one subscription or all of them, for the filters and the replay form. */
export function SubscriptionSelect({
  id,
  value,
  onChange,
  subscriptions,
  className,
}: {
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
        {subscriptions.map((s) => (
          <option key={s.id} value={s.id}>
            {s.eventType}
          </option>
        ))}
      </select>
    </label>
  );
}
