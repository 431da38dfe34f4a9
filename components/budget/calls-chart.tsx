"use client";

import { useSyncExternalStore } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import type { BudgetView } from "@/lib/platform/client";
import { Skeleton } from "@/components/ui/feedback";

export const PURPOSE_COLORS: Record<string, string> = {
  submit: "#2563eb",
  "worker refetch": "#059669",
  "result pages": "#10b981",
  poll: "#d97706",
  "poll sweep": "#f59e0b",
  reconcile: "#9333ea",
  replay: "#0891b2",
  register: "#64748b",
  rotate: "#475569",
  "drift check": "#a855f7",
  other: "#94a3b8",
};
const hhmm = (t: number) => new Date(t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
const noSubscription = () => () => undefined;
type Minute = BudgetView["minutes"][number];

function Plot({ view, purposes }: { view: BudgetView; purposes: string[] }) {
  // The budget line only when it is in reach: drawn at 600/min it would flatten a quiet hour to nothing.
  const showBudget = view.peakPerMinute >= view.budgetPerMinute / 4;
  return (
    <BarChart
      responsive
      data={view.minutes}
      style={{ width: "100%", height: 280 }}
      margin={{ top: 16, right: 16, bottom: 0, left: -8 }}
    >
      <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
      <XAxis dataKey="t" tickFormatter={hhmm} fontSize={12} minTickGap={24} />
      <YAxis allowDecimals={false} fontSize={12} domain={[0, showBudget ? view.budgetPerMinute : "auto"]} />
      <Tooltip labelFormatter={(t) => (typeof t === "number" ? hhmm(t) : String(t))} />
      <Legend wrapperStyle={{ fontSize: 12 }} />
      {purposes.map((p) => (
        <Bar
          key={p}
          name={p}
          stackId="calls"
          dataKey={(m: Minute) => m.byPurpose[p] ?? 0}
          fill={PURPOSE_COLORS[p] ?? "#94a3b8"}
          isAnimationActive={false}
        />
      ))}
      {showBudget && (
        <ReferenceLine
          y={view.budgetPerMinute}
          stroke="#dc2626"
          strokeDasharray="4 2"
          label={{
            value: `budget ${view.budgetPerMinute}/min`,
            position: "insideTopRight",
            fontSize: 11,
            fill: "#991b1b",
          }}
        />
      )}
    </BarChart>
  );
}

/** Calls per minute over the hour, stacked by purpose, against the rate budget; the same in words below. */
export function CallsChart({ view }: { view: BudgetView }) {
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const purposes = view.byPurpose.filter((p) => p.calls > 0).map((p) => p.purpose);
  const described = view.byPurpose
    .filter((p) => p.calls > 0)
    .map((p) => `${p.purpose} ${p.calls}`)
    .join(", ");
  const share = view.budgetPerMinute > 0 ? Math.round((100 * view.peakPerMinute) / view.budgetPerMinute) : 0;
  return (
    <figure>
      <div
        role="img"
        aria-label={`Platform calls per minute over the last hour, by purpose: ${view.totalCalls === 0 ? "none" : described}.`}
      >
        {inBrowser ? <Plot view={view} purposes={purposes} /> : <Skeleton className="h-[280px] w-full" />}
      </div>
      <figcaption className="mt-1 text-xs text-slate-600">
        {view.totalCalls === 0
          ? "No platform calls in the last hour."
          : `Busiest minute: ${view.peakPerMinute} calls, ${share}% of the budget of ${view.budgetPerMinute} per minute (TALLY_API_RPS ${view.requestsPerSecond}, shared by every process).`}
      </figcaption>
    </figure>
  );
}
