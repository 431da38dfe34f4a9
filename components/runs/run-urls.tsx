"use client";

import Link from "next/link";
import { useState } from "react";
import { errorText } from "@/lib/browser/client";
import { URL_STATES, type RunUrlView, type UrlState } from "@/lib/runs/client";
import { Badge } from "@/components/ui/badge";
import { CursorPager, useCursorStack } from "@/components/ui/cursor-pager";
import { ErrorNotice, Skeleton } from "@/components/ui/feedback";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { useRunUrls } from "./use-runs";
import { revealControls } from "@/components/jobs/safe-text";

const TONE = {
  stored: "good",
  failed: "bad",
  retrying: "warn",
  suspect: "warn",
  submitted: "info",
  pending: "neutral",
} as const;

/** The run's URLs in list order, failed ones first in view: state, attempts, job and the reason. */
export function RunUrls({
  runId,
  follow,
  initialState,
  collectionId,
}: {
  runId: string;
  follow: boolean;
  initialState?: UrlState;
  /** A collection's run: each URL links to its history across the collection's runs. */
  collectionId?: string | null;
}) {
  const [state, setState] = useState<UrlState | undefined>(initialState);
  const pages = useCursorStack(state ?? "all");
  const urls = useRunUrls(runId, state, pages.cursor, follow);
  return (
    <div className="space-y-2">
      <label className="flex items-center gap-2 text-sm">
        Show
        <select
          value={state ?? ""}
          onChange={(e) => setState(e.target.value === "" ? undefined : (e.target.value as UrlState))}
          className="rounded border border-slate-300 px-2 py-1"
        >
          <option value="">all URLs</option>
          {URL_STATES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      {urls.error && <ErrorNotice title="Could not load the URLs" message={errorText(urls.error)} />}
      {!urls.data && !urls.error && <Skeleton className="h-24 w-full" />}
      {urls.data && (
        <Table caption="URLs of the run">
          <thead>
            <tr>
              <Th>URL</Th>
              <Th>State</Th>
              <Th className="hidden text-right sm:table-cell">Tries</Th>
              <Th className="hidden sm:table-cell">Reason</Th>
              <Th className="hidden lg:table-cell">Job</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {urls.data.items.length === 0 && <EmptyRow colSpan={5}>No {state ?? ""} URLs.</EmptyRow>}
            {urls.data.items.map((u) => (
              <tr key={u.url}>
                <Td className="max-w-xs break-all font-mono text-xs">
                  {revealControls(u.url)}
                  {collectionId && (
                    <Link
                      href={`/collections/${collectionId}?url=${encodeURIComponent(u.url)}`}
                      className="ml-2 whitespace-nowrap font-sans text-brand-700 underline"
                      aria-label={`History of ${u.url} across the collection's runs`}
                    >
                      history
                    </Link>
                  )}
                  {/* On a phone the reason and tries go under the URL instead of two narrow columns. */}
                  {(u.errorCode || u.errorMessage) && (
                    <span className="mt-1 block font-sans text-slate-700 [word-break:normal] [overflow-wrap:anywhere] sm:hidden">
                      {u.errorCode} {revealControls(u.errorMessage ?? "")} · {u.attempts}{" "}
                      {u.attempts === 1 ? "try" : "tries"}
                    </span>
                  )}
                  <span className="block font-sans [word-break:normal] [overflow-wrap:anywhere] sm:hidden">
                    <CheckDetail u={u} />
                  </span>
                </Td>
                <Td>
                  <Badge tone={TONE[u.state]}>{u.state}</Badge>
                </Td>
                <Td className="hidden text-right tabular-nums sm:table-cell">{u.attempts}</Td>
                <Td className="hidden max-w-sm text-xs text-slate-700 sm:table-cell">
                  {u.errorCode && <span className="font-mono">{u.errorCode}</span>}
                  {u.errorMessage && <span className="block break-words">{revealControls(u.errorMessage)}</span>}
                  <CheckDetail u={u} />
                </Td>
                <Td className="hidden lg:table-cell font-mono text-xs">
                  {u.jobId ? (
                    <Link href={`/jobs/${u.jobId}`} className="text-brand-700 underline">
                      {u.jobId.slice(0, 8)}
                    </Link>
                  ) : (
                    "—"
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <CursorPager
        label="URLs"
        page={pages.page}
        nextCursor={urls.data?.nextCursor}
        onOlder={pages.older}
        onNewer={pages.newer}
        onNewest={pages.newest}
        busy={urls.isFetching}
      />
    </div>
  );
}

/** "plain ×2 → render_js": the rungs tried in order, a rung tried again in a row counted, not repeated. */
function rungsText(rungs: string[]): string {
  const runs: { name: string; n: number }[] = [];
  for (const r of rungs) {
    const last = runs[runs.length - 1];
    if (last && last.name === r) last.n++;
    else runs.push({ name: r, n: 1 });
  }
  return runs.map((r) => (r.n > 1 ? `${r.name} ×${r.n}` : r.name)).join(" → ");
}

/**
 * The failed content check and its excerpt (page text, shown as text: never markup), the rungs tried and
 * the tokens, for a URL that was suspect or climbed the ladder. A failed URL's reason already holds its
 * check and excerpt, so they are not repeated.
 */
function CheckDetail({ u }: { u: RunUrlView }) {
  const climbed = u.rungsTried.length > 1;
  const showCheck = u.checkName !== null && u.state !== "failed";
  if (!showCheck && !climbed) return null;
  return (
    <span className="mt-1 block text-xs text-slate-700">
      {showCheck && (
        <span className="block">
          check <span className="font-mono">{revealControls(u.checkName ?? "")}</span>
          {u.checkExcerpt && <q className="ml-1 break-words italic text-slate-600">{revealControls(u.checkExcerpt)}</q>}
        </span>
      )}
      {climbed && (
        <span className="block">
          rungs tried: {rungsText(u.rungsTried)} · {u.tokensCharged} {u.tokensCharged === 1 ? "token" : "tokens"}
        </span>
      )}
    </span>
  );
}
