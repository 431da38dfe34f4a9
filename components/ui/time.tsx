"use client";

// Times are rendered in the operator's locale and time zone; the ISO value is kept for tooltips.

export function Time({ iso, relative = false }: { iso: string | null | undefined; relative?: boolean }) {
  if (!iso) return <span className="text-slate-400">—</span>;
  const d = new Date(iso);
  const text = relative ? ago(d) : d.toLocaleString();
  return (
    <time dateTime={iso} title={d.toISOString()} suppressHydrationWarning>
      {text}
    </time>
  );
}

export function ago(d: Date, now = Date.now()): string {
  const s = Math.round((now - d.getTime()) / 1000);
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}
