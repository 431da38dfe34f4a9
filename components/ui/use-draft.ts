"use client";

import { useCallback, useEffect, useRef, useState } from "react";

// A form's draft kept in the browser's localStorage while it is typed, so what was typed survives a
// session that ended, a sign-in and a reload (issue 49): the form offers it back when it opens again,
// and forgets it once saved. Only in this browser; drafts over MAX_DRAFT_CHARS are not kept (a large
// list belongs in a file), nor anything once the storage is full.

export const MAX_DRAFT_CHARS = 2_000_000;
const PREFIX = "tally.draft.";

export type Draft<T> = { value: T; savedAt: string };

function read<T>(key: string): Draft<T> | null {
  try {
    const raw = window.localStorage.getItem(PREFIX + key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Draft<T>;
    return parsed && typeof parsed.savedAt === "string" ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * `offered`: a draft from before, until the form takes it (`restore`) or drops it (`discard`); `keep`
 * records the form's current values (a moment after the last change); `forget` clears it after a save.
 */
export function useDraft<T>(key: string, isEmpty: (v: T) => boolean) {
  const [offered, setOffered] = useState<Draft<T> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const settled = useRef(false);
  useEffect(() => {
    const found = read<T>(key);
    // Read once the page is in the browser (localStorage is not on the server).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (found && !isEmpty(found.value)) setOffered(found);
    else settled.current = true;
    return () => clearTimeout(timer.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const keep = useCallback(
    (value: T) => {
      // Nothing is written over a draft on offer until the form has taken or dropped it.
      if (!settled.current) return;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        try {
          if (isEmpty(value)) window.localStorage.removeItem(PREFIX + key);
          else {
            const text = JSON.stringify({ value, savedAt: new Date().toISOString() });
            if (text.length <= MAX_DRAFT_CHARS) window.localStorage.setItem(PREFIX + key, text);
          }
        } catch {
          // full or refused: the draft is a convenience
        }
      }, 400);
    },
    [key, isEmpty],
  );
  const restore = useCallback(() => {
    settled.current = true;
    const d = offered;
    setOffered(null);
    return d?.value ?? null;
  }, [offered]);
  const discard = useCallback(() => {
    settled.current = true;
    setOffered(null);
    try {
      window.localStorage.removeItem(PREFIX + key);
    } catch {}
  }, [key]);
  const forget = useCallback(() => {
    clearTimeout(timer.current);
    settled.current = true;
    try {
      window.localStorage.removeItem(PREFIX + key);
    } catch {}
  }, [key]);
  return { offered, keep, restore, discard, forget };
}
