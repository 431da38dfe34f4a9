"use client";

import { useSyncExternalStore } from "react";

// Times are shown in the operator's own time zone and locale, with the relative time ("3 min ago")
// and the exact UTC instant on hover (or the reverse for relative times). The server does not know
// the operator's zone: it renders UTC, marked as such, and the browser switches to local time right
// after hydration (useSyncExternalStore's server snapshot), so the two renders never disagree.

const noSubscription = () => () => undefined;

/** True once hydrated in the browser. */
export function useInBrowser(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export function utcText(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** The operator's locale and zone; the year only when it is not this year's (tables stay narrow). */
export function localText(d: Date, now = new Date()): string {
  return d.toLocaleString(undefined, {
    year: d.getFullYear() === now.getFullYear() ? undefined : "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
  });
}

/** A formatter for times inside sentences: UTC on the server, the operator's zone in the browser. */
export function useFormatTime(): (iso: string) => string {
  const inBrowser = useInBrowser();
  return (iso) => {
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) return iso;
    return inBrowser ? localText(d) : utcText(d);
  };
}

export function Time({ iso, relative = false }: { iso: string | null | undefined; relative?: boolean }) {
  const inBrowser = useInBrowser();
  if (!iso) return <span className="text-slate-500">—</span>;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return <span>{iso}</span>;
  const exact = inBrowser ? localText(d) : utcText(d);
  const rel = inBrowser ? ago(d) : null;
  const text = relative ? (rel ?? utcText(d)) : exact;
  const title = relative ? `${exact} (${d.toISOString()})` : `${rel ?? ""}${rel ? " · " : ""}${d.toISOString()}`;
  return (
    <time dateTime={iso} title={title}>
      {text}
    </time>
  );
}

export function ago(d: Date, now = Date.now()): string {
  const s = Math.round((now - d.getTime()) / 1000);
  if (s < 0) return `in ${formatSpan(-s)}`;
  return `${formatSpan(s)} ago`;
}

function formatSpan(s: number): string {
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86_400) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} d`;
}
