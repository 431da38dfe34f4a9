import type { RunCounts } from "@/lib/runs/client";

// A run's URLs as one bar: stored, retrying, suspect, failed, submitted and pending, each as its share of the
// total (they add up to it), with a legend in words for screen readers and small screens.

const PARTS = [
  { key: "stored", label: "stored", bar: "bg-emerald-500", dot: "bg-emerald-500" },
  { key: "retrying", label: "retrying", bar: "bg-amber-400", dot: "bg-amber-400" },
  { key: "suspect", label: "suspect", bar: "bg-orange-500", dot: "bg-orange-500" },
  { key: "failed", label: "failed", bar: "bg-red-500", dot: "bg-red-500" },
  { key: "submitted", label: "submitted", bar: "bg-sky-400", dot: "bg-sky-400" },
  { key: "pending", label: "pending", bar: "bg-slate-200", dot: "bg-slate-300" },
] as const;

export function RunProgress({
  counts,
  total,
  legend = true,
  label = "The run's URLs",
}: {
  counts: RunCounts;
  total: number;
  legend?: boolean;
  /** The bar's name for screen readers (a table of runs names each by its run). */
  label?: string;
}) {
  const done = counts.stored + counts.failed;
  const pct = total > 0 ? Math.floor((done / total) * 100) : 0;
  const summary = PARTS.map((p) => `${counts[p.key].toLocaleString("en")} ${p.label}`).join(", ");
  return (
    <div className="min-w-0 space-y-1.5">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={`${pct}% final: ${summary}`}
        className="flex h-3 w-full overflow-hidden rounded-full bg-slate-100"
      >
        {PARTS.map((p) =>
          counts[p.key] > 0 ? (
            <div key={p.key} className={p.bar} style={{ width: `${(counts[p.key] / Math.max(total, 1)) * 100}%` }} />
          ) : null,
        )}
      </div>
      {legend && (
        <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700">
          {PARTS.map((p) => (
            <li key={p.key} className="flex items-center gap-1">
              <span aria-hidden className={`inline-block h-2 w-2 rounded-full ${p.dot}`} />
              <span className="tabular-nums">{counts[p.key].toLocaleString("en")}</span> {p.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function runStateTone(state: string): "good" | "info" | "warn" | "neutral" {
  return state === "completed" ? "good" : state === "running" ? "info" : state === "submitting" ? "warn" : "neutral";
}

export function etaText(seconds: number | null): string {
  if (seconds === null) return "—";
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
