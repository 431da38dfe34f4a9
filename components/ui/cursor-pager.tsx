"use client";

import { useState } from "react";
import { Button } from "./button";

// Keyset paging for any list: a stack of the cursors that led to the current page, so "Newer" goes
// back exactly and the first page (no cursor) is the live one.

export function useCursorStack(resetKey: string) {
  const [state, setState] = useState<{ key: string; stack: string[] }>({ key: resetKey, stack: [] });
  // New filters start again from the newest page.
  const stack = state.key === resetKey ? state.stack : [];
  return {
    cursor: stack.at(-1),
    page: stack.length + 1,
    older: (next: string) => setState({ key: resetKey, stack: [...stack, next] }),
    newer: () => setState({ key: resetKey, stack: stack.slice(0, -1) }),
    newest: () => setState({ key: resetKey, stack: [] }),
  };
}

export function CursorPager({
  label,
  page,
  nextCursor,
  onOlder,
  onNewer,
  onNewest,
  busy = false,
}: {
  label: string;
  page: number;
  nextCursor: string | null | undefined;
  onOlder: (cursor: string) => void;
  onNewer: () => void;
  onNewest: () => void;
  busy?: boolean;
}) {
  return (
    <nav aria-label={`${label} pages`} className="mt-2 flex flex-wrap items-center gap-2 text-sm">
      <Button variant="secondary" onClick={onNewest} disabled={page === 1 || busy}>
        Newest
      </Button>
      <Button variant="secondary" onClick={onNewer} disabled={page === 1 || busy}>
        ← Newer
      </Button>
      <span className="px-1 text-slate-600" aria-live="polite">
        Page {page}
      </span>
      <Button variant="secondary" onClick={() => nextCursor && onOlder(nextCursor)} disabled={!nextCursor || busy}>
        Older →
      </Button>
    </nav>
  );
}
