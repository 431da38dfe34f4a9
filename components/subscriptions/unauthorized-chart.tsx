"use client";

import { useSyncExternalStore } from "react";
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import type { UnauthorizedChart } from "@/lib/subscriptions/unauthorized-contracts";
import { Skeleton } from "@/components/ui/feedback";
import { Time } from "@/components/ui/time";

const COLORS = ["#2563eb", "#dc2626", "#059669", "#9333ea", "#d97706", "#0891b2"];
const hhmm = (t: number) => new Date(t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
const noSubscription = () => () => undefined;
type Point = UnauthorizedChart["points"][number];

function Plot({ chart }: { chart: UnauthorizedChart }) {
  return (
    <LineChart responsive data={chart.points} style={{ width: "100%", height: 260 }} margin={{ top: 16, right: 16, bottom: 0, left: -16 }}>
      <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
      {/* up to now, not to the start of this minute, so a rotation a few seconds ago is drawn */}
      <XAxis dataKey="t" type="number" scale="time" domain={[Date.parse(chart.from), Date.parse(chart.to)]} tickFormatter={hhmm} fontSize={12} />
      <YAxis allowDecimals={false} fontSize={12} />
      <Tooltip labelFormatter={(t) => (typeof t === "number" ? hhmm(t) : String(t))} />
      <Legend />
      {chart.series.map((s, i) => (
        <Line key={s.key} name={s.label} dataKey={(p: Point) => p.counts[s.key] ?? 0} stroke={COLORS[i % COLORS.length]}
          dot={false} strokeWidth={2} isAnimationActive={false} type="linear" />
      ))}
      {chart.markers.map((m, i) => (
        // labels sit left of their line (the newest are at the right edge), alternating top and bottom when close
        <ReferenceLine key={`${m.subscriptionId}-${m.at}`} x={Date.parse(m.at)} stroke="#d97706" strokeDasharray="4 2" ifOverflow="extendDomain"
          label={{ value: m.source === "rotated" ? "rotated" : "set", position: i % 2 ? "insideBottomRight" : "insideTopRight", fontSize: 11, fill: "#92400e" }} />
      ))}
    </LineChart>
  );
}

/** 401s per minute per subscription, with a dashed line at each rotation, and the same in words. */
export function UnauthorizedChartView({ chart }: { chart: UnauthorizedChart }) {
  // Drawn in the browser only: axis times are in the operator's time zone, which the server does not know.
  const inBrowser = useSyncExternalStore(noSubscription, () => true, () => false);
  const label = (key: string) => chart.series.find((s) => s.key === key)?.label ?? key;
  const total = chart.series.reduce((n, s) => n + s.total, 0);
  const described = chart.series.filter((s) => s.total > 0).map((s) => `${s.label}: ${s.total}`).join(", ");
  return (
    <figure>
      <div role="img" aria-label={`401 answers per minute over the last hour: ${total === 0 ? "none" : described}; ${chart.markers.length} rotations marked.`}>
        {inBrowser ? <Plot chart={chart} /> : <Skeleton className="h-[260px] w-full" />}
      </div>
      <figcaption className="mt-1 text-xs text-slate-600">
        {total === 0 ? "No 401s in the last hour." : `401s in the last hour: ${described}.`}
        {chart.truncated ? " More 401s arrived than the chart reads; older minutes are undercounted." : ""}
        {chart.markers.length > 0 && (
          <span className="block">
            Dashed lines:{" "}
            {chart.markers.map((m, i) => (
              <span key={`${m.subscriptionId}-${m.at}`}>
                {i > 0 && "; "}
                {label(m.subscriptionId)} {m.source === "rotated" ? "rotated" : "secret set"} at <Time iso={m.at} /> by {m.actor}
              </span>
            ))}
            .
          </span>
        )}
      </figcaption>
    </figure>
  );
}
