"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { getParsed } from "@/lib/browser/client";
import { changePageSchema } from "@/lib/collections/client";
import type { ChangeCounts } from "@/lib/runs/client";
import { runKeys } from "./query-keys";
import { revealControls } from "@/components/jobs/safe-text";

/** A collection run's change counts and its first changed and new URLs, each with a link to its diff. */
export function RunChanges({ runId, counts }: { runId: string; counts: ChangeCounts }) {
  const q = useQuery({
    queryKey: [...runKeys.detail(runId), "changes"],
    queryFn: ({ signal }) =>
      getParsed(`/api/runs/${encodeURIComponent(runId)}/changes?change=changed&limit=20`, changePageSchema, signal),
  });
  return (
    <div className="space-y-3 text-sm">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {(["new", "changed", "unchanged", "gone"] as const).map((k) => (
          <div key={k}>
            <dt className="text-xs text-slate-600">{k}</dt>
            <dd className="text-lg font-semibold tabular-nums">{counts[k].toLocaleString("en")}</dd>
          </div>
        ))}
      </dl>
      {q.data && q.data.items.length > 0 && (
        <ul className="space-y-1">
          {q.data.items.map((i) => (
            <li key={i.url} className="break-all">
              <Link href={`/runs/${runId}/diff?url=${encodeURIComponent(i.url)}`} className="text-brand-600 underline">
                {revealControls(i.url)}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <a
        href={`/api/runs/${runId}/export?format=csv&changes=only`}
        className="inline-block rounded border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-100"
      >
        Download new and changed (CSV)
      </a>
    </div>
  );
}
