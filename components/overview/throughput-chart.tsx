"use client";

import { useState, useSyncExternalStore } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { Card } from "@/components/ui/card";
import { ErrorNotice, Skeleton } from "@/components/ui/feedback";
import { formatCount } from "@/components/ui/figures";
import { errorText } from "@/lib/browser/client";
import type { ThroughputRange } from "@/lib/overview/client";
import { useThroughput } from "./use-throughput";

// Deliveries (left group) and outcomes (right group) per bucket, stacked, so a burst of refusals or
// dead letters stands out against the steady flow. Drawn in the browser only: axis times are in the
// operator's time zone, which the server does not know.

const SERIES = [
  { key: "accepted", label: "deliveries accepted", color: "#94a3b8", stack: "deliveries" },
  { key: "refused", label: "deliveries refused", color: "#f97316", stack: "deliveries" },
  { key: "stored", label: "stored", color: "#10b981", stack: "outcomes" },
  { key: "resubmitted", label: "resubmitted", color: "#0ea5e9", stack: "outcomes" },
  { key: "dead_lettered", label: "dead-lettered", color: "#ef4444", stack: "outcomes" },
  { key: "cancelled", label: "cancelled", color: "#64748b", stack: "outcomes" },
] as const;

const noSubscription = () => () => undefined;

export function ThroughputChart() {
  const [range, setRange] = useState<ThroughputRange>("hour");
  const { data, error } = useThroughput(range);
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const tick = (t: number) =>
    range === "hour"
      ? new Date(t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
      : new Date(t).toLocaleTimeString([], { hour: "2-digit" });
  const empty = data && Object.values(data.totals).every((n) => n === 0);
  return (
    <Card
      title={`Activity, last ${range}`}
      className="lg:col-span-3"
      actions={
        <div role="group" aria-label="Range" className="flex gap-1 text-sm">
          {(["hour", "day"] as const).map((r) => (
            <button
              key={r}
              type="button"
              aria-pressed={range === r}
              onClick={() => setRange(r)}
              className={`rounded px-2 py-0.5 ${range === r ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-200"}`}
            >
              {r === "hour" ? "Hour" : "Day"}
            </button>
          ))}
        </div>
      }
    >
      {error && <ErrorNotice title="Could not load the activity" message={errorText(error)} />}
      {data && (
        <p className="mb-2 text-xs text-slate-600" data-testid="throughput-totals">
          {formatCount(data.totals.accepted + data.totals.refused)} webhook deliveries (
          {formatCount(data.totals.refused)} refused) · {formatCount(data.totals.stored)} stored ·{" "}
          {formatCount(data.totals.resubmitted)} resubmitted · {formatCount(data.totals.dead_lettered)} dead-lettered ·{" "}
          {formatCount(data.totals.cancelled)} cancelled, per {range === "hour" ? "minute" : "hour"}
          {data.truncated ? " (busy: the oldest part is undercounted)" : ""}
        </p>
      )}
      {!data || !inBrowser ? (
        <Skeleton className="h-56 w-full" />
      ) : empty ? (
        <p className="py-10 text-center text-sm text-slate-600">
          Nothing happened in the last {range}: no deliveries and no outcomes.
        </p>
      ) : (
        <div
          role="img"
          aria-label={`Deliveries and outcomes per ${range === "hour" ? "minute" : "hour"}, last ${range}`}
        >
          <BarChart
            responsive
            data={data.points}
            style={{ width: "100%", height: 230 }}
            margin={{ top: 8, right: 8, bottom: 0, left: -20 }}
            barCategoryGap={1}
          >
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
            <XAxis dataKey="t" tickFormatter={tick} fontSize={11} minTickGap={24} />
            <YAxis allowDecimals={false} fontSize={11} />
            <Tooltip labelFormatter={(t) => (typeof t === "number" ? new Date(t).toLocaleString() : String(t))} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {SERIES.map((s) => (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.label}
                stackId={s.stack}
                fill={s.color}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </div>
      )}
    </Card>
  );
}
