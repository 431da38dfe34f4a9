"use client";

import { useId } from "react";
import { DELIVERY_STATUSES, type DeliveryStatus, type DestinationView } from "@/lib/outbound/client";

export type OutboundFilter = { destinationId?: string; status?: DeliveryStatus };

const LABEL: Record<DeliveryStatus, string> = {
  pending: "pending",
  retrying: "failing, will retry",
  delivered: "delivered",
  dead: "dead letters",
  skipped: "skipped (disabled)",
};
const select = "rounded border border-slate-300 bg-white px-2 py-1 max-w-full";

/** Destination and status filters; a change applies at once. */
export function DeliveryFilters({
  value,
  destinations,
  onChange,
}: {
  value: OutboundFilter;
  destinations: DestinationView[];
  onChange: (f: OutboundFilter) => void;
}) {
  const id = useId();
  const isStatus = (s: string): s is DeliveryStatus => (DELIVERY_STATUSES as readonly string[]).includes(s);
  return (
    <form
      className="flex flex-wrap items-end gap-3 text-sm"
      aria-label="Outbound filters"
      onSubmit={(e) => e.preventDefault()}
    >
      <label className="flex min-w-0 flex-col gap-1" htmlFor={`${id}-dest`}>
        <span>Destination</span>
        <select
          id={`${id}-dest`}
          className={`${select} w-72`}
          value={value.destinationId ?? ""}
          onChange={(e) => onChange({ ...value, destinationId: e.target.value || undefined })}
        >
          <option value="">all destinations</option>
          {destinations.map((d) => (
            <option key={d.id} value={d.id}>
              {d.url}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1" htmlFor={`${id}-status`}>
        <span>Status</span>
        <select
          id={`${id}-status`}
          className={select}
          value={value.status ?? ""}
          onChange={(e) => onChange({ ...value, status: isStatus(e.target.value) ? e.target.value : undefined })}
        >
          <option value="">any status</option>
          {DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {LABEL[s]}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}
