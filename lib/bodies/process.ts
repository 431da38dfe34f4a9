import "server-only";
import { getConfig } from "../config";
import { slot } from "../runtime";
import { openBodyStore } from "./open";
import { sweepGuard } from "./sweep-marks";
import type { BodyStore } from "./store";

// The process's one body store, opened from TALLY_BODY_STORE on first use, with its cache of texts
// bounded by TALLY_BODY_CACHE_BYTES. Keyed by both: tests replace the configuration wholesale
// (setConfigForTests), and a store opened for another configuration is closed and the configured one
// opened instead, with a cache of its own.

const opened = slot<{ url: string; cacheBytes: number; store: BodyStore }>("bodyStore");

export function bodyStore(): BodyStore {
  const { TALLY_BODY_STORE: url, TALLY_BODY_CACHE_BYTES: cacheBytes } = getConfig();
  const current = opened.get();
  if (current?.url === url && current.cacheBytes === cacheBytes) return current.store;
  if (current) void current.store.close().catch(() => undefined);
  return opened.set({ url, cacheBytes, store: openBodyStore(url, { textCacheBytes: cacheBytes, guard: sweepGuard }) })
    .store;
}

/**
 * Opens the configured store and checks it is usable (a probe written, for files; the bucket reached,
 * for S3): start-up calls it and stops with its message instead of failing on the first store.
 */
export async function bodyStoreReady(): Promise<BodyStore> {
  const url = getConfig().TALLY_BODY_STORE;
  let store: BodyStore;
  try {
    store = bodyStore();
    await store.check();
  } catch (err) {
    throw new Error(
      `TALLY_BODY_STORE=${url} is not usable: ${err instanceof Error ? err.message : String(err)}. ` +
        "Page bodies are kept there (docs/operations/storage.md); fix the folder's permissions or the S3 settings and start again.",
      { cause: err },
    );
  }
  return store;
}

/** Closes the process's store (tests, shutdown). */
export async function closeBodyStore(): Promise<void> {
  const current = opened.get();
  opened.clear();
  await current?.store.close();
}
