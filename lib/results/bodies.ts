import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { z } from "zod";
import {
  BodyCorrupt,
  type BodyError,
  type BodyErrorCode,
  bodyStore,
  isBodyCodec,
  isBodyError,
  isBodyUnavailable,
} from "../bodies";
import { log } from "../log";
import { countBodyMissing, countBodyRead, countBodyUnavailable, observeBodyIo } from "../metrics";

// The one place a result row's body is resolved for a reader (issue 40): inline in the row (small
// bodies, and rows stored before the body store), or read from the body store by the key the row names.
// Every reader selects bodyColumns(alias) beside its own columns and passes its rows through
// resolveBodies. A body that cannot be read as stored (no object: body_missing; bytes that do not
// decode or hash to the key: body_corrupt) leaves markdown/html null and `bodyError` saying which body
// of which result, and counts tally_body_missing_total: never an empty body in its place, never a
// failed page for the rows around it. A store that does not answer (BodyUnavailable: the network, a
// timeout, the disk) is counted in tally_body_unavailable_total and, for readers that show results
// (the results API, the feed, the exports, the job page, the diff), reported the same way as
// body_unavailable, the answer going on with the other rows (issue 50: never a 5xx, never an export cut
// short); for those that pass bodies on (sinks, outcome events, change tracking) it is thrown, so their
// work is retried once the store answers rather than done with a body missing. Either way nothing is
// written: the row, its key and the object stay as they are, and read again once the store answers.
// What a `bodyError` says of the store itself (issue 47 item 6): its code and a plain sentence to
// everyone; the object's path or bucket and key, the store's location and endpoint and the system's
// error text only to a reader that asks for `detail` (an admin), and always to the log.

/** The reference columns of a Result row (alias `alias`), after its markdown and html. */
export const bodyRefColumns = (alias: string) =>
  Prisma.raw(
    ["markdownKey", "markdownCodec", "markdownSize", "htmlKey", "htmlCodec", "htmlSize"]
      .map((c) => `${alias}."${c}"`)
      .join(", "),
  );

/** Both bodies and their references: `alias."markdown", alias."html", alias."markdownKey", …`. */
export const bodyColumns = (alias: string) =>
  Prisma.sql`${Prisma.raw(`${alias}."markdown", ${alias}."html"`)}, ${bodyRefColumns(alias)}, ${Prisma.raw(`${alias}."bodyRemovedAt"`)}`;

const text = z.string().nullable();
const size = z.coerce.number().int().nullable();
/** The body columns as a row carries them (a reader's zod schema spreads these in). */
export const bodyColumnsShape = {
  markdown: text,
  html: text,
  markdownKey: text.optional().default(null),
  markdownCodec: text.optional().default(null),
  markdownSize: size.optional().default(null),
  htmlKey: text.optional().default(null),
  htmlCodec: text.optional().default(null),
  htmlSize: size.optional().default(null),
  bodyRemovedAt: z.union([z.date(), z.string(), z.number()]).nullable().optional().default(null),
};

export type BodyColumns = {
  markdown: string | null;
  html: string | null;
  markdownKey: string | null;
  markdownCodec: string | null;
  markdownSize: number | null;
  htmlKey: string | null;
  htmlCodec: string | null;
  htmlSize: number | null;
  /** When retention removed the bodies; null while they are kept. */
  bodyRemovedAt?: Date | string | number | null;
};

/**
 * The body columns of a row resolved: the texts, and why one of them could not be read (else null);
 * `bodyUnavailable` when one of them could not be read because the store did not answer (reported).
 */
export type Resolved = {
  markdown: string | null;
  html: string | null;
  bodyError: string | null;
  bodyUnavailable?: boolean;
};

/**
 * What a store that does not answer does to a read: `throw` (the default: the caller's work is
 * retried) or `report` (the row's bodyError says body_unavailable: readers that show results).
 * `detail`: bodyError carries the store's own words (where the object is, the system's error), for
 * an admin; without it (the default) the code and a plain sentence (docs/operations/security.md).
 */
export type ResolveOptions = { unavailable?: "throw" | "report"; detail?: boolean };
/** Who reads: `detail` for an admin (lib/auth's seesInternalDetail), else the plain words. */
export type BodyAudience = Pick<ResolveOptions, "detail">;

/** What each code says to a reader not shown the store's detail. */
const PLAIN: Record<BodyErrorCode, string> = {
  body_missing: "cannot be read: it is missing from the body store",
  body_corrupt: "cannot be read: it is corrupt in the body store (its stored bytes do not give back the page kept)",
  body_unavailable: "cannot be read now (try again): the body store did not answer",
};

/** Reads at a time for one page of rows. */
const READS_AT_ONCE = 8;

/**
 * A kept body's text: read in full from the store and verified against its key, or a text read and
 * verified so before, from the store's cache, once the object is found still there (BodyStore.text).
 * `size` is the row's uncompressed size (the decode's one pass).
 */
export async function readBody(key: string, codec: string, size?: number | null): Promise<string> {
  if (!isBodyCodec(codec)) throw new BodyCorrupt(key, `its row names an unknown codec ${JSON.stringify(codec)}`);
  const started = performance.now();
  const { text, cached } = await bodyStore().text(key, codec, size);
  countBodyRead(cached ? "cache" : "store");
  if (!cached) observeBodyIo("get", (performance.now() - started) / 1000);
  return text;
}

async function one(
  inline: string | null,
  key: string | null,
  codec: string | null,
  size: number | null,
  what: string,
  name: string,
  options: ResolveOptions,
): Promise<{ text: string | null; error: string | null; unavailable?: boolean }> {
  if (key === null || codec === null) return { text: inline, error: null };
  try {
    return { text: await readBody(key, codec, size), error: null };
  } catch (err) {
    if (isBodyUnavailable(err)) {
      countBodyUnavailable();
      if (options.unavailable !== "report") throw err;
      return {
        text: null,
        error: shown(err, what, name, options, "cannot be read now (try again)"),
        unavailable: true,
      };
    }
    if (!isBodyError(err)) throw err;
    countBodyMissing(err.code);
    return { text: null, error: shown(err, what, name, options, "cannot be read") };
  }
}

/** A body error as a reader is shown it (`lead` before the store's own words); the detail is logged. */
function shown(err: BodyError, what: string, name: string, options: ResolveOptions, lead: string): string {
  const detail = `${err.code}: the ${what} of ${name} ${lead}: ${err.message}`;
  log.warn("a stored body cannot be read", { code: err.code, result: name, body: what, error: detail });
  return options.detail ? detail : `${err.code}: the ${what} of ${name} ${PLAIN[err.code]}`;
}

/** One row's bodies; `name` names the result in an error (job id and item key). */
export async function resolveRow(r: BodyColumns, name: string, options: ResolveOptions = {}): Promise<Resolved> {
  if (r.bodyRemovedAt != null)
    return {
      markdown: null,
      html: null,
      bodyError: `body removed by retention on ${new Date(r.bodyRemovedAt).toISOString()} (TALLY_RESULT_RETENTION_DAYS or its collection's keepBodiesRuns)`,
    };
  const [md, html] = await Promise.all([
    one(r.markdown, r.markdownKey, r.markdownCodec, r.markdownSize, "markdown", name, options),
    one(r.html, r.htmlKey, r.htmlCodec, r.htmlSize, "html", name, options),
  ]);
  const errors = [md.error, html.error].filter((e) => e !== null);
  return {
    markdown: md.text,
    html: html.text,
    bodyError: errors.length > 0 ? errors.join("; ") : null,
    bodyUnavailable: md.unavailable === true || html.unavailable === true,
  };
}

/** `rows` with their bodies resolved (same order), a few reads at a time. */
export async function resolveBodies<R extends BodyColumns>(
  rows: readonly R[],
  name: (r: R) => string,
  options: ResolveOptions = {},
): Promise<Array<R & Resolved>> {
  const out = new Array<R & Resolved>(rows.length);
  let next = 0;
  async function lane() {
    for (let i = next++; i < rows.length; i = next++) {
      const r = rows[i];
      out[i] =
        r.markdownKey === null && r.htmlKey === null && r.bodyRemovedAt == null
          ? { ...r, bodyError: null }
          : { ...r, ...(await resolveRow(r, name(r), options)) };
    }
  }
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, rows.length) }, lane));
  return out;
}

/** How a result is named in a body error: its job and item key. */
export const resultName = (r: { jobId: string; itemKey: string }) => `result ${r.itemKey} of job ${r.jobId}`;
