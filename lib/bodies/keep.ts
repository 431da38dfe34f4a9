import "server-only";
import { observeBodyIo } from "../metrics";
import { INLINE_MAX_BYTES } from "./inline";
import type { BodyStore } from "./store";

/** One body as a row keeps it: the text inline (small), or the object's key, codec and size (text null). */
export type KeptBody = { text: string | null; key: string | null; codec: string | null; size: number | null };

/**
 * Keeps one body the way a result row holds it: over INLINE_MAX_BYTES (UTF-8) it is put into `store`,
 * durably once this resolves, and named by key; at most that, it stays inline. Throws when the put fails.
 */
export async function keepBody(store: BodyStore, text: string | null): Promise<KeptBody> {
  if (text === null) return { text: null, key: null, codec: null, size: null };
  const bytes = Buffer.from(text, "utf8");
  if (bytes.byteLength <= INLINE_MAX_BYTES) return { text, key: null, codec: null, size: null };
  const started = performance.now();
  const d = await store.put(bytes);
  observeBodyIo("put", (performance.now() - started) / 1000);
  return { text: null, key: d.key, codec: d.codec, size: d.size };
}
