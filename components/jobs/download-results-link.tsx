// The Jobs page's download: every stored result of the jobs its filters select, streamed by
// GET /api/results/export. The export takes the list's filters under the same names and meanings;
// sort, limit and cursor only shape the page on screen, so they are left out.

const EXPORTED = ["status", "outcome", "kind", "q", "from", "to"] as const;

export function exportHref(params: Record<string, string>, format: "csv" | "jsonl"): string {
  const qs = new URLSearchParams({ format });
  for (const k of EXPORTED) if (params[k]) qs.set(k, params[k]);
  return `/api/results/export?${qs.toString()}`;
}

const link = "rounded border border-slate-300 bg-white px-2 py-1 text-sm text-brand-600 underline";

/** The jobs list itself as CSV: the same filters plus the order, from GET /api/jobs/export. */
export function jobsExportHref(params: Record<string, string>): string {
  const qs = new URLSearchParams();
  for (const k of [...EXPORTED, "sort"]) if (params[k]) qs.set(k, params[k]);
  const s = qs.toString();
  return s ? `/api/jobs/export?${s}` : "/api/jobs/export";
}

export function DownloadResultsLink({ params }: { params: Record<string, string> }) {
  return (
    <span className="flex flex-wrap items-center gap-2">
      <a href={jobsExportHref(params)} download className={link} data-testid="download-jobs">
        Download jobs (CSV)
      </a>
      <a href={exportHref(params, "csv")} download className={link} data-testid="download-results">
        Download results
      </a>
      <a
        href={exportHref(params, "jsonl")}
        download
        className="text-sm text-slate-600 underline"
        title="The same results as JSON Lines"
      >
        JSON Lines
      </a>
    </span>
  );
}
