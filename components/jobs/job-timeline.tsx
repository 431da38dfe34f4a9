import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Time } from "@/components/ui/time";
import type { TimelineEntry } from "@/lib/jobs";
import { revealControls } from "./safe-text";

const WORD: Record<string, string> = {
  submitted: "submitted",
  heard: "first heard",
  delivery: "webhook",
  attempt: "worker",
  poll: "poll",
  resubmitted: "resubmission",
  outcome: "outcome",
  enqueued: "queued",
  note: "note",
};

const DOT = {
  neutral: "bg-slate-400",
  good: "bg-emerald-500",
  warn: "bg-amber-500",
  bad: "bg-red-500",
  info: "bg-sky-500",
} as const;

export function JobTimeline({ entries }: { entries: TimelineEntry[] }) {
  if (entries.length === 0) return <p className="text-sm text-slate-600">Nothing recorded yet.</p>;
  return (
    <ol className="relative space-y-4 border-l border-slate-200 pl-5" aria-label="Timeline" data-testid="timeline">
      {entries.map((e, i) => (
        <li key={i} className="relative" data-type={e.type}>
          <span aria-hidden className={`absolute -left-[1.65rem] top-1.5 h-2.5 w-2.5 rounded-full ${DOT[e.tone]}`} />
          <div className="flex flex-wrap items-baseline gap-x-2 text-sm">
            <Badge tone={e.tone}>{WORD[e.type] ?? e.type}</Badge>
            <span className="font-medium break-words">{revealControls(e.title)}</span>
            <span className="text-xs text-slate-500">
              <Time iso={e.at} />
            </span>
          </div>
          {e.facts.length > 0 && (
            <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-slate-600">
              {e.facts.map((f) => (
                <div key={f.name} className="flex min-w-0 gap-1">
                  <dt className="text-slate-500">{f.name}</dt>
                  <dd className="min-w-0 break-words">{revealControls(f.value)}</dd>
                </div>
              ))}
            </dl>
          )}
          {e.link && (
            <Link href={e.link.href} className="mt-1 inline-block text-xs text-brand-600 underline">
              {e.link.label} →
            </Link>
          )}
        </li>
      ))}
    </ol>
  );
}
