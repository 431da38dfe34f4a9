import { formatCount } from "@/components/ui/figures";
import { Table, Td, Th } from "@/components/ui/table";
import type { FailedItem, JobDetail } from "@/lib/jobs";
import { SafeUrl } from "./safe-url";
import { revealControls } from "./safe-text";

// A stored batch or crawl's failed items with the platform's reasons: the first ones on the page, all
// of them through GET /api/jobs/{id}/results?status=failed. Scraped URLs and messages render inertly.

export function FailedItems({
  jobId,
  items,
  failed,
}: {
  jobId: string;
  items: JobDetail["job"]["items"];
  failed: FailedItem[];
}) {
  if (items.failed === 0) return null;
  const all = `/api/jobs/${encodeURIComponent(jobId)}/results?status=failed&limit=1000`;
  return (
    <section id="failed-items" aria-labelledby="failed-items-heading" className="min-w-0 space-y-2">
      <h2 id="failed-items-heading" className="text-sm font-semibold uppercase tracking-wide text-slate-600">
        Failed items{" "}
        {items.failed > failed.length
          ? `(first ${formatCount(failed.length)} of ${formatCount(items.failed)})`
          : `(${formatCount(items.failed)})`}
      </h2>
      <Table caption="Failed items with the platform's reasons">
        <thead>
          <tr>
            <Th className="max-sm:hidden">Item</Th>
            <Th>URL</Th>
            <Th>Error</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100" data-testid="failed-items">
          {failed.map((f) => (
            <tr key={f.id}>
              <Td className="font-mono text-xs max-sm:hidden">{/^\d+$/.test(f.itemKey) ? `#${f.itemKey}` : "—"}</Td>
              <Td className="min-w-0 max-w-[28rem] break-all">
                <SafeUrl url={f.url} />
              </Td>
              <Td className="min-w-0 break-words">
                {f.errorCode && <span className="font-medium text-amber-900">{f.errorCode}</span>}
                {f.errorCode && f.errorMessage && ": "}
                {f.errorMessage && revealControls(f.errorMessage)}
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      <p className="text-xs text-slate-600">
        Every failed item as JSON:{" "}
        <a href={all} className="text-brand-600 underline" data-testid="failed-items-api">
          GET /api/jobs/{"{id}"}/results?status=failed
        </a>
      </p>
    </section>
  );
}
