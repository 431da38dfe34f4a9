import type { CollectionRun } from "@/lib/collections";

// A collection's runs history as small bars, oldest on the left: stored (green), failed (red) and, in
// front of stored, the changed and new URLs (amber). Plain SVG, no chart library; each bar has a title.

const H = 80;
const BAR = 14;
const GAP = 6;

export function RunsChart({ runs }: { runs: CollectionRun[] }) {
  const shown = [...runs].reverse();
  if (shown.length === 0) return <p className="text-sm text-slate-600">No runs yet.</p>;
  const max = Math.max(1, ...shown.map((r) => r.counts.stored + r.counts.failed));
  const width = shown.length * (BAR + GAP);
  const h = (n: number) => (n / max) * H;
  return (
    <div className="space-y-2">
      <svg
        viewBox={`0 0 ${width} ${H}`}
        width={Math.min(width * 2, 640)}
        height={H}
        role="img"
        aria-label="Runs: stored, failed and changed URLs per run"
        className="max-w-full"
        preserveAspectRatio="none"
      >
        {shown.map((r, i) => {
          const x = i * (BAR + GAP);
          const changed = (r.changes?.changed ?? 0) + (r.changes?.new ?? 0);
          const stored = h(r.counts.stored);
          const failed = h(r.counts.failed);
          return (
            <g key={r.id}>
              <title>
                {`${r.createdAt.slice(0, 16).replace("T", " ")} UTC (${r.trigger}): ${r.counts.stored} stored, ${r.counts.failed} failed` +
                  (r.changes ? `, ${r.changes.new} new, ${r.changes.changed} changed, ${r.changes.gone} gone` : "")}
              </title>
              <rect x={x} y={H - stored} width={BAR} height={stored} className="fill-emerald-500" />
              <rect x={x} y={H - stored - failed} width={BAR} height={failed} className="fill-red-500" />
              <rect x={x + 3} y={H - h(changed)} width={BAR - 6} height={h(changed)} className="fill-amber-400" />
            </g>
          );
        })}
      </svg>
      <p className="flex flex-wrap gap-3 text-xs text-slate-600">
        <span>
          <span className="mr-1 inline-block h-2 w-2 bg-emerald-500" />
          stored
        </span>
        <span>
          <span className="mr-1 inline-block h-2 w-2 bg-red-500" />
          failed
        </span>
        <span>
          <span className="mr-1 inline-block h-2 w-2 bg-amber-400" />
          new or changed
        </span>
      </p>
    </div>
  );
}

export function ChangeCounts({ changes }: { changes: CollectionRun["changes"] }) {
  if (!changes) return <span className="text-slate-500">—</span>;
  return (
    <span className="tabular-nums">
      {changes.new.toLocaleString("en")} new · {changes.changed.toLocaleString("en")} changed ·{" "}
      {changes.unchanged.toLocaleString("en")} unchanged · {changes.gone.toLocaleString("en")} gone
    </span>
  );
}
