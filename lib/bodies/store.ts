import "server-only";
import { createHash } from "node:crypto";
import { pipeline, Readable } from "node:stream";
import {
  type BodyCodec,
  BODY_CODECS,
  decodeLimit,
  decodeWhole,
  decoder,
  DEFAULT_CODEC,
  encode,
  isBodyCodec,
} from "./codec";
import { BodyCorrupt, BodyMissing, BodyUnavailable, describeFailure, isBodyError } from "./errors";
import { textCache } from "./text-cache";

// The body store: page bodies kept beside the rows under the SHA-256 of their uncompressed bytes
// (content-addressed: the same page stored by any job, run or collection is one object), compressed.
// One surface over two backends (file.ts, s3.ts): a backend only keeps named objects durably; naming,
// encoding and verification live here, once.

export type BodyDescriptor = {
  /** The hex SHA-256 of the uncompressed bytes. */
  key: string;
  /** Uncompressed bytes. */
  size: number;
  /** Bytes kept by the backend. */
  storedSize: number;
  /** How the kept bytes are encoded; keep it in the row, `get` needs it. */
  codec: BodyCodec;
};

export type StoredBody = { key: string; codec: BodyCodec; storedSize: number; modifiedAt: Date };

export interface BodyStore {
  /** Where the bodies are, for messages (never credentials). */
  readonly location: string;
  /**
   * Keeps `bytes`, durably once it resolves (write the row naming it after). Idempotent: a body already
   * kept under its key and codec is not written again.
   */
  put(bytes: Uint8Array): Promise<BodyDescriptor>;
  /**
   * The body's uncompressed bytes as a stream, in constant memory, hashed as they pass: the stream fails
   * with BodyMissing when there is no object, BodyCorrupt when it does not decode or its bytes do not
   * hash to `key` (after the last byte: a consumer must not take the body as good before the end).
   */
  get(key: string, codec: BodyCodec, size?: number | null): Readable;
  /**
   * The body's uncompressed bytes in one buffer, verified against `key` before it resolves (BodyMissing,
   * BodyCorrupt as for `get`): for a reader that holds the whole body anyway (a JSON answer, a page
   * of an export), faster than the stream (the kept bytes are read whole, then decoded in one call
   * off the main thread). `size`, the uncompressed size the row keeps, makes the decode one pass.
   * Always reads the object: `bodies verify` uses it.
   */
  read(key: string, codec: BodyCodec, size?: number | null): Promise<Buffer>;
  /**
   * The body as UTF-8 text, what readers show: read and verified as `read` does, then kept in the
   * store's cache of texts (bounded, `textCacheBytes`). A later call for the key is answered from
   * the cache once the object the row names is found still there at the stored size it was read at
   * (a stat; a HEAD on S3): a missing object fails with BodyMissing on every call, a changed one is
   * read and verified again. `cached` says which it was.
   */
  text(key: string, codec: BodyCodec, size?: number | null): Promise<{ text: string; cached: boolean }>;
  /** Whether an object of this key is kept, under any codec. */
  has(key: string): Promise<boolean>;
  /** Removes the body's objects (every codec); nothing when there are none. */
  delete(key: string): Promise<void>;
  /** Every kept object with its age, for the sweep of orphans; temporary files are not objects. */
  list(): AsyncIterable<StoredBody>;
  /**
   * The sweep's removal: the object of `key` under `codec`, only if it was last modified (written, or
   * found by a put) before `before`, and not at all past `notAfter` (a removal that stalled on its
   * way); whether it was removed.
   */
  deleteIfOlder(key: string, codec: BodyCodec, before: Date, notAfter?: Date): Promise<boolean>;
  /**
   * The sweep's clean-up of what crashed writes leave (a file store's temporary files last modified
   * before `before`); how many went. Nothing on a store whose writes leave nothing behind (S3).
   */
  removeStaleTemporaries(before: Date): Promise<number>;
  /** Fails with a clear message when the store cannot be used (for start-up), within bounded time. */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** What a backend does: keep named objects. Names are `ab/cd/<key>.<ext>` (objectName). */
export interface Backend {
  readonly location: string;
  /** Where `name` is, for messages. */
  where(name: string): string;
  /** The kept size of `name`, or null when it does not exist. */
  size(name: string): Promise<number | null>;
  /**
   * Marks `name` as just used (its modification time now) and gives its kept size, or null when it
   * does not exist: a put that finds its body kept already makes it young again, so the sweep of
   * orphans (which removes only objects older than its grace) cannot take it while the row naming it
   * is still to commit.
   */
  touch(name: string): Promise<number | null>;
  /**
   * Removes `name` only if it was last modified before `before` (checked as close to the removal as
   * the backend allows); whether it was removed.
   */
  removeIfOlder(name: string, before: Date, notAfter?: Date): Promise<boolean>;
  /** Keeps `data` under `name`, durably once it resolves; never visible in part. */
  write(name: string, data: Buffer): Promise<void>;
  /** The object's bytes, or null when it does not exist. */
  read(name: string): Promise<Readable | null>;
  /** The object's bytes in one buffer, or null when it does not exist; a failed read throws as is. */
  readAll(name: string): Promise<Buffer | null>;
  remove(name: string): Promise<void>;
  names(): AsyncIterable<{ name: string; size: number; modifiedAt: Date }>;
  /** Removes leftovers of crashed writes last modified before `before` (optional: none on S3). */
  removeStaleTemporaries?(before: Date): Promise<number>;
  check(): Promise<void>;
  close(): Promise<void>;
}

const EXTENSION: Record<BodyCodec, string> = { br: "br", gzip: "gz", identity: "bin" };
const KEY = /^[0-9a-f]{64}$/;
const NAME = /^([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})\.(br|gz|bin)$/;

function checkKey(key: string): void {
  if (!KEY.test(key)) throw new TypeError(`not a body key (64 lowercase hex digits): ${JSON.stringify(key)}`);
}

/**
 * Fans out by the key's first two bytes, `ab/cd/abcd….br`: 65,536 folders, so a folder holds about
 * a thousand files at 65 million bodies, and none of the upper two more than 256 entries.
 */
export function objectName(key: string, codec: BodyCodec): string {
  checkKey(key);
  return `${key.slice(0, 2)}/${key.slice(2, 4)}/${key}.${EXTENSION[codec]}`;
}

function parseName(name: string): { key: string; codec: BodyCodec } | null {
  const m = NAME.exec(name);
  if (!m || !m[3].startsWith(m[1] + m[2])) return null;
  const codec = BODY_CODECS.find((c) => EXTENSION[c] === m[4]);
  return codec ? { key: m[3], codec } : null;
}

export const bodyKey = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/**
 * What a put asks after making a kept body young again (sweep-marks.ts): whether the sweep is removing
 * that key right now, and to wait until it is done. Without one (a CLI's store, a test's), a put
 * trusts its touch.
 */
export type SweepGuard = {
  marked(key: string): Promise<boolean>;
  cleared(key: string): Promise<void>;
};

export type BodyStoreOptions = {
  /** Between the sweep and a put of the same body; the process's store has one. */
  guard?: SweepGuard;
  /** The codec new bodies are written with. */
  codec?: BodyCodec;
  /** Bound of the cache of texts `text()` keeps, in bytes; 0 (the default here) keeps none. */
  textCacheBytes?: number;
};

/** Reads failing in a row (none answered between) after which the store counts as down for a while. */
export const DOWN_AFTER_FAILURES = 4;
/**
 * How long a store that counts as down is not asked: its reads fail at once (issue 50). A store that
 * holds requests unanswered costs each read its timeouts (10 s a try, 3 tries on S3): without this, an
 * export of 100,000 rows through such an outage would take days instead of finishing with them marked.
 */
export const DOWN_FOR_MS = 3_000;

export function createBodyStore(backend: Backend, options: BodyStoreOptions = {}): BodyStore {
  const codec = options.codec ?? DEFAULT_CODEC;
  const texts = options.textCacheBytes ? textCache(options.textCacheBytes) : null;
  /** Reads of one object in flight, shared by the callers that ask for it meanwhile. */
  const reading = new Map<string, Promise<string>>();
  /** Reads that failed in a row, and while the store counts as down, until when and why. */
  const health = { failedInARow: 0, downUntil: 0, why: "" };

  /** Before a read: a store that counts as down is not asked, the read fails at once saying why. */
  function gate(key: string): void {
    if (Date.now() < health.downUntil)
      throw new BodyUnavailable(
        key,
        backend.location,
        `${health.why} (${health.failedInARow} reads in a row failed: not asked again for ${DOWN_FOR_MS / 1000} s)`,
      );
  }
  /** After a read: an answer (an object, or none) ends a run of failures; a failure counts toward one. */
  function answered(): void {
    health.failedInARow = 0;
  }
  function unavailable(key: string, err: unknown): BodyUnavailable {
    const why = describeFailure(err);
    if (++health.failedInARow >= DOWN_AFTER_FAILURES)
      Object.assign(health, { downUntil: Date.now() + DOWN_FOR_MS, why });
    return new BodyUnavailable(key, backend.location, why, { cause: err });
  }

  /** A backend read for `key` whose failure (not an answer of "no such object") is BodyUnavailable. */
  async function ask<T>(key: string, call: () => Promise<T>): Promise<T> {
    gate(key);
    try {
      const out = await call();
      answered();
      return out;
    } catch (err) {
      if (isBodyError(err)) throw err;
      throw unavailable(key, err);
    }
  }

  /**
   * The kept object's stored size after making it young again (Backend.touch), or null when there is
   * none to keep. When the sweep was removing the key at the touch (the guard's mark, read after it),
   * its delete may have come after: the answer waits for the sweep and looks again.
   */
  async function keptStill(key: string, name: string): Promise<number | null> {
    const kept = await backend.touch(name);
    if (kept === null || !options.guard || !(await options.guard.marked(key))) return kept;
    await options.guard.cleared(key);
    return backend.touch(name);
  }

  /** The object `name` read whole, decoded and verified against `key`; its stored size beside. */
  async function readVerified(key: string, codecOfRow: BodyCodec, size?: number | null) {
    const name = objectName(key, codecOfRow);
    const data = await ask(key, () => backend.readAll(name));
    if (!data) throw new BodyMissing(key, backend.where(name));
    let bytes: Buffer;
    try {
      bytes = await decodeWhole(data, codecOfRow, size);
    } catch (err) {
      const tooLong = err instanceof RangeError || (err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE";
      const why = tooLong ? `decodes past ${decodeLimit(size)} bytes` : `does not decode (${String(err)})`;
      throw new BodyCorrupt(key, `its ${codecOfRow} data at ${backend.where(name)} ${why}`, { cause: err });
    }
    // The whole SHA-256 on every read from the store: brotli has no checksum of its own, and a byte
    // flipped in a brotli stream decodes without an error to the right length but other bytes about
    // 4 times in 10 (docs/operations/storage.md), so neither the decoder nor the row's size would tell.
    const digest = bodyKey(bytes);
    if (digest !== key) throw new BodyCorrupt(key, `its bytes at ${backend.where(name)} hash to ${digest}`);
    return { bytes, storedSize: data.length };
  }

  return {
    location: backend.location,

    async put(bytes) {
      const key = bodyKey(bytes);
      const size = bytes.byteLength;
      // The usual hit (the same page again) is found before any compression work, and made young
      // again for the sweep (Backend.touch).
      const kept = await keptStill(key, objectName(key, codec));
      if (kept !== null) return { key, size, storedSize: kept, codec };
      const encoded = await encode(bytes, codec);
      const name = objectName(key, encoded.codec);
      if (encoded.codec !== codec) {
        const keptAs = await keptStill(key, name);
        if (keptAs !== null) return { key, size, storedSize: keptAs, codec: encoded.codec };
      }
      await backend.write(name, encoded.data);
      return { key, size, storedSize: encoded.data.length, codec: encoded.codec };
    },

    get(key, codecOfRow, size) {
      checkKey(key);
      if (!isBodyCodec(codecOfRow)) throw new TypeError(`unknown body codec ${JSON.stringify(codecOfRow)}`);
      return Readable.from(verified(backend, key, codecOfRow, decodeLimit(size), { gate, answered, unavailable }), {
        objectMode: false,
      });
    },

    async read(key, codecOfRow, size) {
      checkKey(key);
      if (!isBodyCodec(codecOfRow)) throw new TypeError(`unknown body codec ${JSON.stringify(codecOfRow)}`);
      return (await readVerified(key, codecOfRow, size)).bytes;
    },

    async text(key, codecOfRow, size) {
      checkKey(key);
      if (!isBodyCodec(codecOfRow)) throw new TypeError(`unknown body codec ${JSON.stringify(codecOfRow)}`);
      const name = objectName(key, codecOfRow);
      const hit = texts?.get(key);
      if (hit && hit.codec === codecOfRow) {
        // The text is the key's, whatever happened since; the object is checked so that one gone is
        // said so now, not once the entry leaves the cache. A size of "none" is not taken as the answer:
        // S3's 404 to a HEAD has no body to say whether the object or the whole bucket is gone (issue
        // 50: a bucket removed is the store unavailable, never every body missing), so the read below
        // asks again and its answer says which.
        const kept = await ask(key, () => backend.size(name));
        if (kept !== null && kept === hit.storedSize) return { text: hit.text, cached: true };
        texts?.delete(key);
      }
      let pending = reading.get(name);
      if (!pending) {
        pending = readVerified(key, codecOfRow, size).then(({ bytes, storedSize }) => {
          const text = bytes.toString("utf8");
          texts?.set(key, { text, codec: codecOfRow, storedSize }, bytes.length);
          return text;
        });
        reading.set(name, pending);
        const done = () => void reading.delete(name);
        pending.then(done, done);
      }
      return { text: await pending, cached: false };
    },

    async has(key) {
      const found = await Promise.all(BODY_CODECS.map((c) => ask(key, () => backend.size(objectName(key, c)))));
      return found.some((s) => s !== null);
    },

    async delete(key) {
      texts?.delete(key);
      await Promise.all(BODY_CODECS.map((c) => backend.remove(objectName(key, c))));
    },

    async deleteIfOlder(key, codecOfObject, before, notAfter) {
      const removed = await backend.removeIfOlder(objectName(key, codecOfObject), before, notAfter);
      if (removed) texts?.delete(key);
      return removed;
    },

    removeStaleTemporaries: (before) => backend.removeStaleTemporaries?.(before) ?? Promise.resolve(0),

    async *list() {
      for await (const o of backend.names()) {
        const parsed = parseName(o.name);
        if (parsed) yield { ...parsed, storedSize: o.size, modifiedAt: o.modifiedAt };
      }
    },

    check: () => backend.check(),
    close: () => backend.close(),
  };
}

/** The object's bytes decoded and hashed on the way; errors typed as the reader needs them. */
async function* verified(
  backend: Backend,
  key: string,
  codec: BodyCodec,
  limit: number,
  health: {
    gate(key: string): void;
    answered(): void;
    unavailable(key: string, err: unknown): BodyUnavailable;
  },
): AsyncGenerator<Buffer> {
  const name = objectName(key, codec);
  const unavailable = (err: unknown) => health.unavailable(key, err);
  health.gate(key);
  const source = await backend.read(name).catch((err: unknown) => {
    throw unavailable(err);
  });
  health.answered();
  if (!source) throw new BodyMissing(key, backend.where(name));
  let sourceError: unknown;
  source.once("error", (err) => (sourceError = err));
  const decode = decoder(codec);
  const bytes: Readable = decode ? pipeline(source, decode, () => undefined) : source;
  const hash = createHash("sha256");
  let total = 0;
  try {
    for await (const chunk of bytes as AsyncIterable<Buffer>) {
      total += chunk.length;
      // Past the row's size it is not the body the row names (a bomb decodes without end): stop here.
      if (total > limit)
        throw new BodyCorrupt(key, `its ${codec} data at ${backend.where(name)} decodes past ${limit} bytes`);
      hash.update(chunk);
      yield chunk;
    }
  } catch (err) {
    if (err instanceof BodyCorrupt) throw err;
    // A read failing (the network, the disk) is that failure; a decoder refusing the bytes is corruption.
    if (sourceError !== undefined && err === sourceError) throw unavailable(err);
    throw new BodyCorrupt(key, `its ${codec} data at ${backend.where(name)} does not decode (${String(err)})`, {
      cause: err,
    });
  } finally {
    bytes.destroy();
    source.destroy();
  }
  const digest = hash.digest("hex");
  if (digest !== key) throw new BodyCorrupt(key, `its bytes at ${backend.where(name)} hash to ${digest}`);
}
