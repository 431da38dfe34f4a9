"use client";

import { Can } from "@/components/auth/role-context";
import Link from "next/link";
import { useState } from "react";
import { DeadLetterActions } from "@/components/dead-letters/dead-letter-actions";
import { DeadLetterFilters } from "@/components/dead-letters/dead-letter-filters";
import { DeadLetterTable } from "@/components/dead-letters/dead-letter-table";
import { deadLetterSearch } from "@/components/dead-letters/query-keys";
import { useDeadLetters } from "@/components/dead-letters/use-dead-letters";
import { ErrorNotice, PageSkeleton } from "@/components/ui/feedback";
import { formatCount } from "@/components/ui/figures";
import { errorText } from "@/lib/browser/client";
import type { DeadLetterListQuery } from "@/lib/dead-letters";

export function DeadLettersClient({ query }: { query: DeadLetterListQuery }) {
  const { data, error } = useDeadLetters(query);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  if (!data)
    return error ? (
      <ErrorNotice title="Could not load the dead letters" message={errorText(error)} />
    ) : (
      <PageSkeleton />
    );
  // Only rows still open on screen can be acted on; a refresh may have resolved some.
  const openIds = new Set(data.items.filter((r) => r.state === "open").map((r) => r.id));
  const chosen = [...selected].filter((id) => openIds.has(id));

  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = (ids: number[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const id of ids)
        if (on) next.add(id);
        else next.delete(id);
      return next;
    });

  const firstPage = { ...query, cursor: undefined };
  return (
    <div className="space-y-4">
      <DeadLetterFilters filter={query} kinds={data.facets.kinds} errorCodes={data.facets.errorCodes} />
      {error && <ErrorNotice title="Refresh failed; showing the last list" message={error.message} />}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-700" data-testid="dead-letter-total">
          {formatCount(data.total)} {query.state === "all" ? "" : `${query.state} `}dead letter
          {data.total === 1 ? "" : "s"} match.
        </p>
        <a
          href={`/api/dead-letters/export${deadLetterSearch(firstPage)}`}
          download
          className="rounded border border-slate-300 bg-white px-2 py-1 text-sm text-brand-600 underline"
          data-testid="download-dead-letters"
        >
          Download CSV
        </a>
      </div>
      <Can role="operator">
        <DeadLetterActions filter={query} total={data.total} selected={chosen} onDone={() => setSelected(new Set())} />
      </Can>
      <DeadLetterTable rows={data.items} selected={selected} onToggle={toggle} onToggleAll={toggleAll} />
      <nav aria-label="Pages" className="flex gap-3 text-sm">
        {query.cursor && (
          <Link href={`/dead-letters${deadLetterSearch(firstPage)}`} className="text-brand-600 underline">
            First page
          </Link>
        )}
        {data.nextCursor && (
          <Link
            href={`/dead-letters${deadLetterSearch({ ...query, cursor: data.nextCursor })}`}
            className="text-brand-600 underline"
          >
            Next page
          </Link>
        )}
      </nav>
    </div>
  );
}
