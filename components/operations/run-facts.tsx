import { Time } from "@/components/ui/time";

// A run's progress or summary (free-form JSON written by each kind of run) as labelled facts:
// numbers and words inline, lists and nested objects folded away, long lists cut short.

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** The counts an operator looks for first, in this order, when a run reports them. */
export const HEADLINE = [
  "listed",
  "pages",
  "alreadyDone",
  "enqueued",
  "stillRunning",
  "alreadyQueued",
  "created",
] as const;

export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function isObject(v: Json | undefined): v is { [key: string]: Json } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

function scalar(v: Json): React.ReactNode {
  if (v === null) return "—";
  // en-US grouping on both server and browser, so the prefetched render hydrates unchanged
  if (typeof v === "number") return v.toLocaleString("en-US");
  if (typeof v === "boolean") return v ? "yes" : "no";
  // times written by runs are ISO strings; <Time> shows them in the operator's time zone
  if (typeof v === "string") return ISO.test(v) && !Number.isNaN(Date.parse(v)) ? <Time iso={v} /> : v;
  return null;
}

function Folded({ label, value }: { label: string; value: Json }) {
  const count = Array.isArray(value) ? value.length : Object.keys(value ?? {}).length;
  const text = JSON.stringify(value, null, 2);
  return (
    <details className="col-span-full text-xs">
      <summary className="cursor-pointer text-slate-600">
        {label} ({count} {Array.isArray(value) ? "items" : "fields"})
      </summary>
      <pre className="mt-1 max-h-48 overflow-auto rounded bg-slate-50 p-2" tabIndex={0} aria-label={label}>
        {text.length > 4000 ? `${text.slice(0, 4000)}\n…` : text}
      </pre>
    </details>
  );
}

/** Headline counts as large figures, then every other fact. */
export function RunFacts({ value, compact = false }: { value: Json | null | undefined; compact?: boolean }) {
  if (value === null || value === undefined) return null;
  if (!isObject(value)) return <p className="text-sm">{scalar(value) ?? JSON.stringify(value)}</p>;
  const headline = HEADLINE.filter((k) => typeof value[k] === "number");
  const rest = Object.entries(value).filter(([k]) => !headline.some((h) => h === k));
  if (compact) {
    // lists count in a one-line summary (e.g. "Registered: 3"); nested objects wait for the run's detail
    const brief = (v: Json): React.ReactNode => (Array.isArray(v) ? v.length : scalar(v));
    // A reconciliation's scope (recent or full) leads: it says what the counts cover.
    const scope = typeof value.scope === "string" ? [["scope", value.scope] as const] : [];
    const others = rest.filter(([k, v]) => k !== "scope" && brief(v) !== null);
    const parts = [...scope, ...headline.map((k) => [k, value[k] ?? null] as const), ...others].slice(
      0,
      6 + scope.length,
    );
    return (
      <span className="text-xs text-slate-700">
        {parts.map(([k, v], i) => (
          <span key={k}>
            {i > 0 && " · "}
            {humanize(k)}: {brief(v)}
          </span>
        ))}
      </span>
    );
  }
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-4">
      {headline.map((k) => (
        <div key={k}>
          <dt className="text-xs text-slate-600">{humanize(k)}</dt>
          <dd className="text-xl font-semibold tabular-nums">{scalar(value[k] ?? null)}</dd>
        </div>
      ))}
      {rest.map(([k, v]) =>
        scalar(v) === null ? (
          <Folded key={k} label={humanize(k)} value={v} />
        ) : (
          <div key={k}>
            <dt className="text-xs text-slate-600">{humanize(k)}</dt>
            <dd className="break-words text-sm">{scalar(v)}</dd>
          </div>
        ),
      )}
    </dl>
  );
}
