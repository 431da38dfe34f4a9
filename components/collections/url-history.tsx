"use client";

import Link from "next/link";
import { useState } from "react";
import { errorText } from "@/lib/browser/client";
import type { UrlHistoryItem } from "@/lib/collections/client";
import { revealControls } from "@/components/jobs/safe-text";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CursorPager, useCursorStack } from "@/components/ui/cursor-pager";
import { ErrorNotice, Skeleton } from "@/components/ui/feedback";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { Time } from "@/components/ui/time";
import { useUrlHistory } from "./use-url-history";

// One URL across the collection's runs: pick it from the list (or type it), see newest run first what
// became of it, the rung that stored it and the rung its next run starts at. Excerpts are page text,
// shown as text (never markup).

const TONE = {
  stored: "good",
  failed: "bad",
  retrying: "warn",
  suspect: "warn",
  submitted: "info",
  pending: "neutral",
} as const;
/** The picker offers this many of the list's URLs; any other can be typed. */
const OFFERED = 1000;

export function UrlHistory({ id, urls, initialUrl }: { id: string; urls: string[]; initialUrl?: string }) {
  const [typed, setTyped] = useState(initialUrl ?? "");
  const [url, setUrl] = useState<string | null>(initialUrl ?? null);
  const pages = useCursorStack(url ?? "");
  const history = useUrlHistory(id, url, pages.cursor);
  return (
    <div className="space-y-3">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setUrl(typed.trim() === "" ? null : typed.trim());
        }}
      >
        <label className="block min-w-0 flex-1 basis-64 text-sm">
          URL <span className="text-slate-500">(one of the list’s; type to search)</span>
          <input
            list={`urls-of-${id}`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder={urls[0] ?? "https://…"}
            className="mt-1 block w-full rounded border border-slate-300 px-2 py-1 font-mono text-sm"
          />
          <datalist id={`urls-of-${id}`}>
            {urls.slice(0, OFFERED).map((u) => (
              <option key={u} value={u} />
            ))}
          </datalist>
        </label>
        <Button type="submit" variant="secondary">
          Show its history
        </Button>
      </form>
      {history.error && <ErrorNotice title="No history" message={errorText(history.error)} />}
      {url !== null && !history.data && !history.error && <Skeleton className="h-24 w-full" />}
      {history.data && (
        <>
          <p className="text-sm text-slate-700" data-testid="remembered-rung">
            Next run starts it at:{" "}
            {history.data.remembered ? (
              <>
                <span className="font-mono">{history.data.remembered.rungName}</span> (rung{" "}
                {history.data.remembered.rung + 1}, the one that last worked, since{" "}
                <Time iso={history.data.remembered.updatedAt} />)
              </>
            ) : (
              <>the first rung (nothing remembered)</>
            )}
          </p>
          <Table caption="The URL's runs">
            <thead>
              <tr>
                <Th>Run</Th>
                <Th>State</Th>
                <Th className="hidden sm:table-cell">Change</Th>
                <Th>Rung</Th>
                <Th className="hidden text-right sm:table-cell">Tokens</Th>
                <Th className="hidden md:table-cell">Check</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {history.data.items.length === 0 && (
                <EmptyRow colSpan={6}>No run of this collection had this URL.</EmptyRow>
              )}
              {history.data.items.map((h) => (
                <HistoryRow key={h.runId} h={h} />
              ))}
            </tbody>
          </Table>
          <CursorPager
            label="Runs of the URL"
            page={pages.page}
            nextCursor={history.data.nextCursor}
            onOlder={pages.older}
            onNewer={pages.newer}
            onNewest={pages.newest}
            busy={history.isFetching}
          />
        </>
      )}
    </div>
  );
}

function CheckText({ h }: { h: UrlHistoryItem }) {
  if (h.checkName === null) return h.errorCode ? <span className="font-mono">{h.errorCode}</span> : <>—</>;
  return (
    <span className="[overflow-wrap:anywhere]">
      {h.errorCode && <span className="font-mono">{h.errorCode} </span>}
      {h.state === "stored" ? "an earlier rung failed check " : "check "}
      <span className="font-mono">{revealControls(h.checkName)}</span>
      {h.checkExcerpt && <q className="ml-1 italic text-slate-600">{revealControls(h.checkExcerpt)}</q>}
    </span>
  );
}

function HistoryRow({ h }: { h: UrlHistoryItem }) {
  return (
    <tr>
      <Td className="text-xs">
        <Link href={`/runs/${h.runId}`} className="text-brand-700 underline lg:whitespace-nowrap">
          <Time iso={h.startedAt} />
        </Link>
        <span className="block text-slate-500">{h.trigger}</span>
        {/* On a phone the change, tokens and check go under the run instead of narrow columns. */}
        <span className="mt-1 block text-slate-700 md:hidden">
          <span className="sm:hidden">
            {h.change ?? "not classified"} · {h.tokensCharged} {h.tokensCharged === 1 ? "token" : "tokens"}
            <br />
          </span>
          {(h.checkName !== null || h.errorCode) && <CheckText h={h} />}
        </span>
      </Td>
      <Td>
        <Badge tone={TONE[h.state]}>{h.state}</Badge>
      </Td>
      <Td className="hidden text-xs sm:table-cell">{h.change ?? "—"}</Td>
      <Td className="text-xs">
        <span className="font-mono">{h.rungName}</span>
        {h.rungsTried.length > 1 && (
          <span className="block text-slate-600 [overflow-wrap:anywhere]">tried: {h.rungsTried.join(" → ")}</span>
        )}
      </Td>
      <Td className="hidden text-right text-xs tabular-nums sm:table-cell">{h.tokensCharged}</Td>
      <Td className="hidden max-w-sm text-xs text-slate-700 md:table-cell">
        <CheckText h={h} />
      </Td>
    </tr>
  );
}
