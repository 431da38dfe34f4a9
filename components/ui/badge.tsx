const tones = {
  neutral: "bg-slate-100 text-slate-700",
  good: "bg-emerald-100 text-emerald-800",
  warn: "bg-amber-100 text-amber-800",
  bad: "bg-red-100 text-red-800",
  info: "bg-sky-100 text-sky-800",
} as const;

export type Tone = keyof typeof tones;

export function Badge({ tone = "neutral", children }: { tone?: Tone; children: React.ReactNode }) {
  return <span className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium ${tones[tone]}`}>{children}</span>;
}

const OUTCOME_TONE: Record<string, Tone> = {
  stored: "good",
  resubmitted: "info",
  dead_lettered: "bad",
  cancelled: "neutral",
  pending: "warn",
};

export function OutcomeBadge({ outcome }: { outcome: string }) {
  return <Badge tone={OUTCOME_TONE[outcome] ?? "neutral"}>{outcome.replace("_", " ")}</Badge>;
}

export function HttpStatusBadge({ status }: { status: number | null }) {
  if (status === null) return <Badge tone="bad">no answer</Badge>;
  const tone: Tone = status < 300 ? "good" : status === 401 ? "bad" : status < 500 ? "warn" : "bad";
  return <Badge tone={tone}>{status}</Badge>;
}
