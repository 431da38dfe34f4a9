import "server-only";
import { fileBodyStore } from "./file";
import { s3BodyStore, type S3BodyStoreOptions } from "./s3";
import type { BodyStore, BodyStoreOptions } from "./store";

/** The default store: files under ./data/bodies, beside the default SQLite database. */
export const DEFAULT_BODY_STORE = "file:./data/bodies";

type S3Extras = Pick<S3BodyStoreOptions, "endpoint" | "region" | "credentials" | "timeoutMs">;
type Extras = S3Extras & Pick<BodyStoreOptions, "textCacheBytes" | "guard">;

/**
 * The store a TALLY_BODY_STORE-style URL names: `file:<folder>` (relative to the working directory, or
 * absolute), or `s3://<bucket>[/<prefix>]` with `?forcePathStyle=true` for S3-compatible servers that
 * want it; the endpoint, region and credentials are the standard AWS variables' unless given in
 * `extras`, as is the bound of its cache of texts (none unless given).
 */
export function openBodyStore(url: string = DEFAULT_BODY_STORE, extras: Extras = {}): BodyStore {
  const { textCacheBytes, guard, ...s3 } = extras;
  if (url.startsWith("file:")) {
    const root = url.slice("file:".length).replace(/^\/\/(?=\/)/, "");
    if (!root) throw new Error(`body store ${url}: no folder after file:`);
    return fileBodyStore({ root, textCacheBytes, guard });
  }
  if (url.startsWith("s3://")) {
    const u = new URL(url);
    if (!u.hostname) throw new Error(`body store ${url}: no bucket after s3://`);
    const unknown = [...u.searchParams.keys()].filter((k) => k !== "forcePathStyle");
    if (unknown.length > 0) throw new Error(`body store ${url}: unknown option ${unknown.join(", ")}`);
    return s3BodyStore({
      ...s3,
      textCacheBytes,
      guard,
      bucket: u.hostname,
      prefix: decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, ""),
      forcePathStyle: u.searchParams.get("forcePathStyle") === "true",
    });
  }
  throw new Error(`body store ${url}: must be file:<folder> or s3://<bucket>/<prefix>`);
}
