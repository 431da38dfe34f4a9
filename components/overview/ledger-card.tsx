import Link from "next/link";
import { Card, Stat } from "@/components/ui/card";
import { formatCount } from "@/components/ui/figures";
import type { Overview } from "@/lib/overview/client";

// The ledger: every job Tally knows is accounted for by exactly one outcome. Pending jobs are split
// by age, so a job stuck for an hour (a lost webhook, a dead worker) stands out at a glance. Below the
// jobs, their items: a stored batch with failed items inside is not "100 % stored" content.

const PARTS = [
  { key: "stored", label: "stored", color: "bg-emerald-500" },
  { key: "resubmitted", label: "resubmitted", color: "bg-sky-500" },
  { key: "dead_lettered", label: "dead-lettered", color: "bg-red-500" },
  { key: "cancelled", label: "cancelled", color: "bg-slate-400" },
  { key: "pending", label: "pending", color: "bg-amber-400" },
] as const;

const AGE_TONE: Record<string, "neutral" | "warn" | "bad"> = {
  under5m: "neutral",
  "5to60m": "warn",
  "1to24h": "bad",
  over24h: "bad",
};

const percent = (part: number, whole: number) => {
  const p = (part / whole) * 100;
  return `${p > 0 && p < 0.1 ? "<0.1" : p > 99.9 && p < 100 ? ">99.9" : Math.round(p * 10) / 10} %`;
};

/** Items inside stored jobs: a stored batch or crawl may hold items that failed, counted here. */
function ItemsLine({ items }: { items: Overview["ledger"]["items"] }) {
  const warn = items.failed > 0;
  return (
    <p
      className={`mt-3 flex flex-wrap items-baseline gap-x-2 gap-y-1 rounded border p-2 text-sm ${
        warn ? "border-amber-300 bg-amber-50 text-amber-950" : "border-slate-200 bg-slate-50 text-slate-700"
      }`}
      data-testid="ledger-items"
    >
      <span className="font-medium">Items in stored jobs:</span>
      <span className="whitespace-nowrap">
        <span className="font-semibold tabular-nums" data-testid="ledger-items-stored">
          {formatCount(items.stored)}
        </span>{" "}
        stored
        {items.total > 0 && ` (${percent(items.stored, items.total)})`}
      </span>
      <span aria-hidden>+</span>
      <span className="whitespace-nowrap">
        <span
          className={`font-semibold tabular-nums ${warn ? "text-amber-800" : ""}`}
          data-testid="ledger-items-failed"
        >
          {formatCount(items.failed)}
        </span>{" "}
        failed{items.total > 0 && ` (${percent(items.failed, items.total)})`}
      </span>
      {warn && (
        <span className="text-xs text-amber-900">
          in {formatCount(items.jobsWithFailed)} stored {items.jobsWithFailed === 1 ? "job" : "jobs"}: those items have
          no content
        </span>
      )}
    </p>
  );
}

export function LedgerCard({ ledger }: { ledger: Overview["ledger"] }) {
  const { known, byOutcome, unaccounted, pendingByAge } = ledger;
  return (
    <Card title="Ledger" className="lg:col-span-3">
      <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm" data-testid="ledger-equation">
        <span>
          <span className="text-2xl font-semibold tabular-nums" data-testid="ledger-known">
            {formatCount(known)}
          </span>{" "}
          jobs known
        </span>
        <span aria-hidden>=</span>
        <span className="sr-only">equals</span>
        {PARTS.map((p, i) => (
          <span key={p.key} className="whitespace-nowrap">
            {i > 0 && <span aria-hidden>+ </span>}
            <span className="font-semibold tabular-nums" data-testid={`ledger-${p.key}`}>
              {formatCount(byOutcome[p.key])}
            </span>{" "}
            <Link href={`/jobs?outcome=${p.key}`} className="underline decoration-slate-300 hover:decoration-slate-600">
              {p.label}
            </Link>
          </span>
        ))}
        {unaccounted > 0 && (
          <span className="font-semibold text-red-700">+ {formatCount(unaccounted)} with an unknown outcome</span>
        )}
      </p>
      {known > 0 && (
        <div aria-hidden className="mt-3 flex h-3 w-full overflow-hidden rounded bg-slate-100">
          {PARTS.map((p) => (
            <div key={p.key} className={p.color} style={{ width: `${(byOutcome[p.key] / known) * 100}%` }} />
          ))}
        </div>
      )}
      {known > 0 && (
        <ul
          className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600"
          aria-label="Legend"
          data-testid="ledger-legend"
        >
          {PARTS.map((p) => (
            <li key={p.key} className="flex items-center gap-1.5">
              <span aria-hidden className={`inline-block h-2.5 w-2.5 rounded-sm ${p.color}`} />
              {p.label} {known > 0 ? `${Math.round((byOutcome[p.key] / known) * 100)} %` : ""}
              {p.key === "stored" && ledger.items.jobsWithFailed > 0 && (
                <span className="text-amber-800" data-testid="ledger-stored-with-failed">
                  ({formatCount(ledger.items.jobsWithFailed)} with failed items)
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {known > 0 && <ItemsLine items={ledger.items} />}
      {known === 0 && (
        <p className="mt-3 text-sm text-slate-600">No jobs yet: submitted and heard-of jobs are counted here.</p>
      )}
      <h3 className="mt-4 text-xs font-semibold uppercase tracking-wide text-slate-600">Pending by age</h3>
      <div className="mt-2 grid grid-cols-2 gap-4 sm:grid-cols-4">
        {pendingByAge.map((b) => {
          const tone = b.count === 0 ? "neutral" : (AGE_TONE[b.key] ?? "neutral");
          return <Stat key={b.key} label={b.label} value={formatCount(b.count)} tone={tone} />;
        })}
      </div>
      <p className="mt-2 text-xs text-slate-500">
        Jobs usually settle within minutes. Pending for over {ledger.pendingAlertMinutes} min means a webhook, a worker
        or a poll went missing; reconciliation picks those up.
      </p>
    </Card>
  );
}
