import Link from "next/link";
import { Badge, OutcomeBadge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { formatCount } from "@/components/ui/figures";
import { Time } from "@/components/ui/time";
import type { JobDetail } from "@/lib/jobs";
import { ORIGIN, PlatformStatusBadge } from "./jobs-table";
import { SafeUrl } from "./safe-url";
import { revealControls } from "./safe-text";

function Fact({ label, className = "", children }: { label: string; className?: string; children: React.ReactNode }) {
  return (
    <div className={`min-w-0 ${className}`}>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-sm">{children}</dd>
    </div>
  );
}

const jobHref = (id: string) => `/jobs/${encodeURIComponent(id)}`;

/**
 * "N of M items failed" for a stored batch or crawl: the job's outcome is stored, yet items inside it
 * may have no content. Amber with a link to the failed items when N > 0.
 */
function ItemsLine({ job }: { job: JobDetail["job"] }) {
  if (job.kind === "extract" || job.outcome !== "stored") return null;
  const { total, failed } = job.items;
  const text = `${formatCount(failed)} of ${formatCount(total)} ${total === 1 ? "item" : "items"} failed`;
  if (failed === 0)
    return (
      <p
        className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
        data-testid="job-items"
      >
        {text}: every item was stored with its content.
      </p>
    );
  return (
    <p
      role="status"
      className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
      data-testid="job-items"
    >
      <span className="font-semibold">{text}</span> ({Math.round((failed / Math.max(total, 1)) * 1000) / 10} %): the job
      is stored, these items have no content.{" "}
      <a href="#failed-items" className="underline">
        See the failed items
      </a>
    </p>
  );
}

export function JobSummary({ detail }: { detail: JobDetail }) {
  const { job, resubmittedFrom, resubmittedAs, deadLetters } = detail;
  return (
    <div className="space-y-4">
      <Card>
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
          <Fact label="Platform status">
            <PlatformStatusBadge status={job.platformStatus} />
          </Fact>
          <Fact label="Outcome">
            <span data-testid="job-outcome">
              <OutcomeBadge outcome={job.outcome} />
            </span>
          </Fact>
          <Fact label="Kind">{job.kind}</Fact>
          <Fact label="Origin">{ORIGIN[job.origin] ?? `heard of through ${job.origin}`}</Fact>
          <Fact label="Created">
            <Time iso={job.createdAt} />
          </Fact>
          <Fact label="Settled on the platform">
            <Time iso={job.settledAt} />
          </Fact>
          <Fact label="Outcome recorded">
            <Time iso={job.outcomeAt} />
          </Fact>
          <Fact label="Worker attempts">{job.attempts}</Fact>
          <Fact label={job.kind === "extract" ? "Results" : "Items"}>
            {formatCount(job.items.total)}
            {job.items.failed > 0 && <span className="text-amber-800"> ({formatCount(job.items.failed)} failed)</span>}
          </Fact>
          <Fact label="Tokens charged">{job.tokensCharged ?? "—"}</Fact>
          <Fact label="Resubmission depth">{job.chainDepth}</Fact>
          <Fact label="URL" className="col-span-2 sm:col-span-3 lg:col-span-4">
            <SafeUrl url={job.url} />
          </Fact>
        </dl>
      </Card>
      <ItemsLine job={job} />
      {job.error && (job.error.code || job.error.message) && (
        <div
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900"
          data-testid="job-error"
        >
          <p className="font-medium">
            The platform reported an error{job.error.code ? `: ${job.error.code}` : ""}
            {job.error.retryable === null ? "" : job.error.retryable ? " (retryable)" : " (not retryable)"}
          </p>
          {job.error.message && (
            <p className="mt-1 whitespace-pre-wrap break-words">{revealControls(job.error.message)}</p>
          )}
        </div>
      )}
      {(resubmittedFrom || resubmittedAs) && (
        <nav aria-label="Resubmissions" className="flex flex-wrap gap-4 text-sm">
          {resubmittedFrom && (
            <Link
              href={jobHref(resubmittedFrom.id)}
              className="text-brand-600 underline"
              data-testid="resubmitted-from"
            >
              ← Resubmission of {resubmittedFrom.id} ({resubmittedFrom.outcome.replace("_", " ")})
            </Link>
          )}
          {resubmittedAs && (
            <Link href={jobHref(resubmittedAs.id)} className="text-brand-600 underline" data-testid="resubmitted-as">
              Resubmitted as {resubmittedAs.id} ({resubmittedAs.outcome.replace("_", " ")}) →
            </Link>
          )}
        </nav>
      )}
      {deadLetters.length > 0 && (
        <Card title="Dead letters">
          <ul className="space-y-2 text-sm">
            {deadLetters.map((d) => (
              <li key={d.id} className="break-words">
                <Badge tone={d.state === "open" ? "bad" : "neutral"}>{d.state}</Badge> <Time iso={d.createdAt} /> ·{" "}
                {d.errorCode && <span className="font-medium">{d.errorCode}: </span>}
                {revealControls(d.errorMessage)}
                {d.resolution && <span className="text-slate-600"> — {revealControls(d.resolution)}</span>}{" "}
                <Link
                  href={`/dead-letters?state=all&jobId=${encodeURIComponent(job.id)}`}
                  className="text-brand-600 underline"
                >
                  open in Dead letters
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}
