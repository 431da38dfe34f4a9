"use client";

import { useInBrowser } from "./time";

/**
 * " · refreshing…" while a live query fetches. Never during hydration: figures the server rendered
 * are already stale when the page hydrates late (a slow phone, a busy server), the query then starts
 * its refresh at once, and the note would differ from the server's HTML (React error 418).
 */
export function RefreshingNote({ active }: { active: boolean }) {
  const inBrowser = useInBrowser();
  return inBrowser && active ? " · refreshing…" : null;
}
