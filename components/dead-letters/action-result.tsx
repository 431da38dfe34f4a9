import Link from "next/link";
import { Notice } from "@/components/ui/feedback";
import type { ActionSummary } from "@/lib/dead-letters";

/** What an action actually did: changed, skipped because someone else got there first, failed and why. */
export function ActionResult({ summary }: { summary: ActionSummary }) {
  const verb = summary.action === "retry" ? "Retried" : "Discarded";
  const by = new Map<string, number>();
  for (const r of summary.results) by.set(r.result, (by.get(r.result) ?? 0) + 1);
  const breakdown = [...by.entries()]
    .filter(([k]) => k !== "skipped" && k !== "failed")
    .map(([k, n]) => `${n} ${k.replace(/_/g, " ")}`);
  const failures = summary.results.filter((r) => r.result === "failed");
  const resubmitted = summary.results.filter((r) => r.newJobId);
  return (
    <Notice tone={summary.failed > 0 || summary.skipped > 0 ? "warn" : "good"}>
      <p data-testid="action-result">
        {verb} {summary.changed} of {summary.requested}
        {breakdown.length > 0 ? ` (${breakdown.join(", ")})` : ""}; {summary.skipped} skipped because they were no
        longer open; {summary.failed} failed.
      </p>
      {resubmitted.length > 0 && (
        <p className="mt-1">
          New jobs:{" "}
          {resubmitted.slice(0, 10).map((r, i) => (
            <span key={r.id}>
              {i > 0 && ", "}
              <Link href={`/jobs/${encodeURIComponent(r.newJobId ?? "")}`} className="font-mono text-xs underline">
                {r.newJobId}
              </Link>
            </span>
          ))}
          {resubmitted.length > 10 && ` and ${resubmitted.length - 10} more`}
        </p>
      )}
      {failures.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {failures.slice(0, 10).map((f) => (
            <li key={f.id} className="break-words">
              #{f.id}: {f.message}
            </li>
          ))}
        </ul>
      )}
    </Notice>
  );
}
