"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useSyncExternalStore } from "react";
import { Bar, BarChart, CartesianGrid, ReferenceLine, Tooltip, XAxis, YAxis } from "recharts";
import type { UnauthorizedChart } from "@/lib/subscriptions/client";
import { Skeleton } from "@/components/ui/feedback";
import { Time } from "@/components/ui/time";

// One small chart per subscription that had 401s or a rotation (small multiples share one time axis,
// so they line up): red bars per minute, so a spike stands out against an empty baseline; the window
// starts a few minutes before the first 401 or rotation instead of an hour of nothing; each rotation
// is a dashed line labelled with what happened; a bar opens the matching deliveries.

const MINUTE = 60_000;
const LEAD_MINUTES = 5;
const hhmm = (t: number) => new Date(t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
const noSubscription = () => () => undefined;
type Point = UnauthorizedChart["points"][number];

/** The deliveries page filtered to one subscription's 401s in [from, to). */
export function deliveriesHref(subscriptionId: string, from: number, to: number): string {
  const q = new URLSearchParams({ status: "401", from: new Date(from).toISOString(), to: new Date(to).toISOString() });
  if (subscriptionId !== "unknown") q.set("subscriptionId", subscriptionId);
  return `/deliveries?${q.toString()}`;
}

/** The points from a little before the first 401 or rotation to now (the whole range when there is neither). */
export function trimmedPoints(chart: UnauthorizedChart): Point[] {
  const firstData = chart.points.find((p) => Object.values(p.counts).some((n) => n > 0))?.t;
  const firstMarker = chart.markers.map((m) => Math.floor(Date.parse(m.at) / MINUTE) * MINUTE).sort((x, y) => x - y)[0];
  const first = Math.min(firstData ?? Infinity, firstMarker ?? Infinity);
  if (!Number.isFinite(first)) return chart.points;
  return chart.points.filter((p) => p.t >= first - LEAD_MINUTES * MINUTE);
}

function Panel({
  chart,
  points,
  series,
}: {
  chart: UnauthorizedChart;
  points: Point[];
  series: UnauthorizedChart["series"][number];
}) {
  const router = useRouter();
  const data = points.map((p) => ({ t: p.t, n: p.counts[series.key] ?? 0 }));
  const peak = data.reduce((best, p) => (p.n > best.n ? p : best), { t: 0, n: 0 });
  const markers = chart.markers.filter((m) => m.subscriptionId === series.key);
  const from = points[0]?.t ?? Date.parse(chart.from);
  const to = Date.parse(chart.to);
  return (
    <div
      className="min-w-0 rounded border border-slate-200 p-2"
      data-testid="chart-panel"
      data-subscription={series.label}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">{series.label}</span>
        <span className="text-xs text-slate-600">
          {series.total} × 401{peak.n > 0 ? ` · peak ${peak.n}/min at ${hhmm(peak.t)}` : ""} ·{" "}
          <Link href={deliveriesHref(series.key, from, to + MINUTE)} className="text-brand-600 underline">
            these deliveries
          </Link>
        </span>
      </div>
      <BarChart
        responsive
        data={data}
        style={{ width: "100%", height: 150 }}
        margin={{ top: 14, right: 8, bottom: 0, left: -24 }}
        barCategoryGap={1}
      >
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="t" tickFormatter={hhmm} fontSize={11} minTickGap={28} />
        <YAxis allowDecimals={false} fontSize={11} domain={[0, (max: number) => Math.max(3, max)]} />
        <Tooltip
          cursor={{ fill: "#fee2e2" }}
          labelFormatter={(t) =>
            typeof t === "number" ? `${hhmm(t)} (click the bar for these deliveries)` : String(t)
          }
          formatter={(v) => [`${String(v)} × 401`, series.label]}
        />
        <Bar
          dataKey="n"
          name="401s"
          fill="#dc2626"
          isAnimationActive={false}
          cursor="pointer"
          onClick={(entry: { payload?: { t?: number } }) => {
            const t = entry.payload?.t;
            if (typeof t === "number") router.push(deliveriesHref(series.key, t, t + MINUTE));
          }}
        />
        {markers.map((m, i) => {
          const x = Math.floor(Date.parse(m.at) / MINUTE) * MINUTE;
          // the label sits on the side of its line that has room
          const right = data.findIndex((p) => p.t === x) > data.length / 2;
          return (
            <ReferenceLine
              key={`${m.at}-${i}`}
              x={x}
              stroke="#d97706"
              strokeDasharray="4 2"
              strokeWidth={2}
              label={{
                value: `${series.label} ${m.source === "rotated" ? "rotated" : "secret set"} ${hhmm(Date.parse(m.at))}`,
                position: right ? "insideTopRight" : "insideTopLeft",
                fontSize: 11,
                fill: "#92400e",
              }}
            />
          );
        })}
      </BarChart>
    </div>
  );
}

function Plot({ chart }: { chart: UnauthorizedChart }) {
  const points = trimmedPoints(chart);
  const shown = chart.series.filter((s) => s.total > 0 || chart.markers.some((m) => m.subscriptionId === s.key));
  if (shown.length === 0)
    return (
      <p className="py-8 text-center text-sm text-slate-600">
        No 401s and no rotations in the last hour: every signed delivery was accepted.
      </p>
    );
  return (
    <div className={`grid gap-3 ${shown.length > 1 ? "lg:grid-cols-2" : ""}`}>
      {shown.map((s) => (
        <Panel key={s.key} chart={chart} points={points} series={s} />
      ))}
    </div>
  );
}

/** 401s per minute per subscription, with a dashed line at each rotation, and the same in words. */
export function UnauthorizedChartView({ chart }: { chart: UnauthorizedChart }) {
  // Drawn in the browser only: axis times are in the operator's time zone, which the server does not know.
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const label = (key: string) => chart.series.find((s) => s.key === key)?.label ?? key;
  const total = chart.series.reduce((n, s) => n + s.total, 0);
  const described = chart.series
    .filter((s) => s.total > 0)
    .map((s) => `${s.label}: ${s.total}`)
    .join(", ");
  return (
    // Named as a whole, not as one image: the panels hold links (the deliveries of a minute), which an
    // image role would hide from the keyboard and screen readers (axe: nested-interactive).
    <figure
      aria-label={`401 answers per minute over the last hour: ${total === 0 ? "none" : described}; ${chart.markers.length} rotations marked.`}
    >
      <div>{inBrowser ? <Plot chart={chart} /> : <Skeleton className="h-[170px] w-full" />}</div>
      <figcaption className="mt-1 text-xs text-slate-600">
        {total === 0 ? "No 401s in the last hour." : `401s in the last hour: ${described}.`}
        {chart.truncated ? " More 401s arrived than the chart reads; older minutes are undercounted." : ""}
        {chart.markers.length > 0 && (
          <span className="block">
            Dashed lines:{" "}
            {chart.markers.map((m, i) => (
              <span key={`${m.subscriptionId}-${m.at}`}>
                {i > 0 && "; "}
                {label(m.subscriptionId)} {m.source === "rotated" ? "rotated" : "secret set"} at <Time iso={m.at} /> by{" "}
                {m.actor}
              </span>
            ))}
            .
          </span>
        )}
      </figcaption>
    </figure>
  );
}
