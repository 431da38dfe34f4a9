import "server-only";
import { log } from "../log";
import { singleton } from "../runtime";
import { fingerprint, type IgnoreRule } from "./fingerprint";

// Fingerprints of bodies kept in the body store, without reading them again where possible: a body's
// key is the SHA-256 of its bytes, so the same key under the same ignore rules has the same fingerprint.
// A collection fetches the same list on every tick and most pages come back byte for byte as before:
// their prints are remembered here by (rules, key) and such a body is never read from the store again
// by this process. Bounded: the oldest entries go first past MAX_REMEMBERED.

const MAX_REMEMBERED = 50_000;
const remembered = singleton("bodyPrints", () => new Map<string, string>());

const memoKey = (contentKey: string, rules: string) => `${rules}\u0000${contentKey}`;

/** Whether the print of the content under `contentKey` with `rules` (their stored JSON) is known. */
export function printKnown(contentKey: string, rules: string): boolean {
  return remembered.has(memoKey(contentKey, rules));
}

type Printable = {
  id: number;
  markdown: string | null;
  html: string | null;
  contentKey: string | null;
  bodyError: string | null;
};

/**
 * The fingerprint of a result's content (its markdown, else its html): remembered by key, or computed
 * from the bodies read. null when a body could not be read back as stored (logged; counted by the reader).
 */
export function bodyPrint(r: Printable, rules: readonly IgnoreRule[], rulesText: string): string | null {
  if (r.contentKey !== null) {
    const k = memoKey(r.contentKey, rulesText);
    const hit = remembered.get(k);
    if (hit !== undefined) return hit;
  }
  if (r.bodyError !== null) {
    log.warn("change tracking: no fingerprint for a result whose body cannot be read", { error: r.bodyError });
    return null;
  }
  const fp = fingerprint(r.markdown, r.html, rules);
  if (r.contentKey !== null) {
    const k = memoKey(r.contentKey, rulesText);
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
    remembered.set(k, fp);
  }
  return fp;
}
