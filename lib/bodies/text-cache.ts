import "server-only";
import type { BodyCodec } from "./codec";

// The texts of bodies read lately, by key, least recently used first out, bounded in bytes
// (TALLY_BODY_CACHE_BYTES). A run of a collection shares most of its pages with the run before, so
// the same key comes back across runs, jobs and readers; turning an object back into a string
// (decompress, SHA-256, UTF-8) is most of a read's cost (docs/operations/storage.md). Only a text
// that was read from its object and hashed to its key is ever put in: an entry is the body of its
// key, whatever object or row later names that key.

/** What an entry is known by besides its key: the object it was read from, to check it is still there. */
export type CachedText = { text: string; codec: BodyCodec; storedSize: number };

/** Bytes an entry is counted for besides its text: its key, the map's slot, the record. */
const ENTRY_OVERHEAD = 200;

/**
 * The bytes a text of `utf8Bytes` takes in V8's heap: one per character while every character is
 * ASCII (a one-byte string), else counted as two per character, the most a string takes.
 */
export const textBytes = (text: string, utf8Bytes: number) =>
  (utf8Bytes === text.length ? text.length : 2 * text.length) + ENTRY_OVERHEAD;

export type TextCache = {
  get(key: string): CachedText | undefined;
  /** Keeps `entry` under `key` (the text hashed to it); a text over an eighth of the bound is not kept. */
  set(key: string, entry: CachedText, utf8Bytes: number): void;
  delete(key: string): void;
  clear(): void;
  /** The bytes the entries are counted for, and their number. */
  readonly bytes: number;
  readonly size: number;
  readonly maxBytes: number;
};

export function textCache(maxBytes: number): TextCache {
  const entries = new Map<string, CachedText & { charge: number }>();
  let bytes = 0;
  const drop = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    entries.delete(key);
    bytes -= e.charge;
  };
  return {
    get(key) {
      const e = entries.get(key);
      if (!e) return undefined;
      // Most recently used last: Map keeps insertion order.
      entries.delete(key);
      entries.set(key, e);
      return { text: e.text, codec: e.codec, storedSize: e.storedSize };
    },
    set(key, entry, utf8Bytes) {
      drop(key);
      const charge = textBytes(entry.text, utf8Bytes);
      // One large body must not push out every other: past an eighth of the bound it is not kept.
      if (charge > maxBytes / 8) return;
      entries.set(key, { text: entry.text, codec: entry.codec, storedSize: entry.storedSize, charge });
      bytes += charge;
      for (const oldest of entries.keys()) {
        if (bytes <= maxBytes) break;
        drop(oldest);
      }
    },
    delete: drop,
    clear() {
      entries.clear();
      bytes = 0;
    },
    get bytes() {
      return bytes;
    },
    get size() {
      return entries.size;
    },
    maxBytes,
  };
}
