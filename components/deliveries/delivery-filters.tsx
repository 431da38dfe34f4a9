"use client";

import { useId, useState } from "react";
import { type DeliveryFilter, normalize, windowSchema } from "@/lib/webhooks/client";
import { SubscriptionSelect, type SubscriptionOption } from "./subscription-label";
import { Button } from "@/components/ui/button";

const STATUS_PRESETS = [
  ["", "any status"],
  ["2xx", "2xx accepted"],
  ["4xx", "4xx refused"],
  ["401", "401 bad signature"],
  ["5xx", "5xx server error"],
  ["none", "no answer (platform)"],
] as const;

const input = "rounded border border-slate-300 bg-white px-2 py-1";

/** An ISO time as the value of a datetime-local input, in the operator's own time zone. */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

const fromLocalInput = (v: string) => (v ? new Date(v).toISOString() : undefined);

export function DeliveryFilters({
  value,
  subscriptions,
  onApply,
  pending,
}: {
  value: DeliveryFilter;
  subscriptions: SubscriptionOption[];
  onApply: (f: DeliveryFilter) => void;
  pending: boolean;
}) {
  const id = useId();
  const preset = STATUS_PRESETS.some(([v]) => v === (value.status ?? "")) ? (value.status ?? "") : "exact";
  const [status, setStatus] = useState<string>(preset);
  const [code, setCode] = useState(preset === "exact" ? (value.status ?? "") : "");
  const [range, setRange] = useState<string>(value.from || value.to ? "custom" : (value.window ?? ""));
  const [from, setFrom] = useState(toLocalInput(value.from));
  const [to, setTo] = useState(toLocalInput(value.to));
  const [subscriptionId, setSubscriptionId] = useState(value.subscriptionId ?? "");

  function submit(e: React.FormEvent) {
    e.preventDefault();
    onApply(
      normalize({
        status: status === "exact" ? code.trim() || undefined : status || undefined,
        window: windowSchema.safeParse(range).data,
        from: range === "custom" ? fromLocalInput(from) : undefined,
        to: range === "custom" ? fromLocalInput(to) : undefined,
        subscriptionId: subscriptionId || undefined,
      }),
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3 text-sm" aria-label="Delivery filters">
      <label className="flex flex-col gap-1" htmlFor={`${id}-status`}>
        <span>Status</span>
        <select id={`${id}-status`} value={status} onChange={(e) => setStatus(e.target.value)} className={input}>
          {STATUS_PRESETS.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
          <option value="exact">exact code…</option>
        </select>
      </label>
      {status === "exact" && (
        <label className="flex flex-col gap-1" htmlFor={`${id}-code`}>
          <span>Code</span>
          <input
            id={`${id}-code`}
            inputMode="numeric"
            pattern="[1-5][0-9][0-9]"
            placeholder="e.g. 413"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            className={`${input} w-24`}
          />
        </label>
      )}
      <label className="flex flex-col gap-1" htmlFor={`${id}-range`}>
        <span>Time</span>
        <select id={`${id}-range`} value={range} onChange={(e) => setRange(e.target.value)} className={input}>
          <option value="">all time</option>
          <option value="15m">last 15 minutes</option>
          <option value="1h">last hour</option>
          <option value="24h">last 24 hours</option>
          <option value="7d">last 7 days</option>
          <option value="custom">between…</option>
        </select>
      </label>
      {range === "custom" && (
        <>
          <label className="flex flex-col gap-1" htmlFor={`${id}-from`}>
            <span>From</span>
            <input
              id={`${id}-from`}
              type="datetime-local"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              className={input}
            />
          </label>
          <label className="flex flex-col gap-1" htmlFor={`${id}-to`}>
            <span>To</span>
            <input
              id={`${id}-to`}
              type="datetime-local"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              className={input}
            />
          </label>
        </>
      )}
      <SubscriptionSelect
        id={`${id}-sub`}
        value={subscriptionId}
        onChange={setSubscriptionId}
        subscriptions={subscriptions}
        className={input}
      />
      <Button type="submit" pending={pending} pendingLabel="Filtering…">
        Apply
      </Button>
      <Button variant="ghost" onClick={() => onApply({})} disabled={pending}>
        Clear
      </Button>
    </form>
  );
}
