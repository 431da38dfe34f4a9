import "server-only";
import type { Transform } from "node:stream";
import { promisify } from "node:util";
import zlib from "node:zlib";

// How a body's bytes are kept: compressed with one codec, named per object and kept in the row, so a
// body written under an older choice stays readable after the choice changes. Only codecs every
// supported Node has (20, 22, 24): zstd is in node:zlib from 22.15 alone.

export const BODY_CODECS = ["br", "gzip", "identity"] as const;
export type BodyCodec = (typeof BODY_CODECS)[number];

export const isBodyCodec = (v: string): v is BodyCodec => (BODY_CODECS as readonly string[]).includes(v);

/**
 * The codec new bodies are written with: brotli at quality 5, chosen by bench/bodies-codec.ts on
 * generated HTML and markdown of 20-200 KB (figures in docs/operations/storage.md): as small as gzip -6
 * (ratio 3.23 against 3.22) and 1.6x faster to compress, which every put pays; it decodes a little
 * slower (about 100 MB/s, 1 ms for a 100 KB page). Quality 6 and up buys 2-5 % for 1.5-50x the time.
 */
export const DEFAULT_CODEC: BodyCodec = "br";
const BROTLI_QUALITY = 5;

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const brotliDecompress = promisify(zlib.brotliDecompress);
const gunzip = promisify(zlib.gunzip);

/**
 * The bytes to keep for `bytes` and their codec. A body that does not get smaller (already compressed
 * media, random bytes, the empty body) is kept as it is, under `identity`: decided by the bytes alone,
 * so the same body always ends up under the same codec.
 */
export async function encode(bytes: Uint8Array, codec: BodyCodec): Promise<{ data: Buffer; codec: BodyCodec }> {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (codec === "identity" || raw.length === 0) return { data: raw, codec: "identity" };
  const data =
    codec === "br"
      ? await brotliCompress(raw, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        })
      : await gzip(raw, { level: 6 });
  return data.length < raw.length ? { data, codec } : { data: raw, codec: "identity" };
}

/** A stream turning a stored object's bytes back into the body's; null for `identity`. */
export function decoder(codec: BodyCodec): Transform | null {
  if (codec === "br") return zlib.createBrotliDecompress();
  if (codec === "gzip") return zlib.createGunzip();
  return null;
}

/** The largest output buffer a whole decode asks for at once; a larger body takes a few passes. */
const MAX_DECODE_CHUNK = 64 * 1024 * 1024;

/**
 * The most bytes a body may decode to when its row keeps no size (rows from before sizes were kept):
 * far past any page Tally stores (a page is at most 3,000,000 characters, 12 MB in UTF-8).
 */
export const MAX_UNSIZED_BODY = 64 * 1024 * 1024;

/**
 * How many bytes a decode may produce: the row's recorded size, else MAX_UNSIZED_BODY. A brotli object
 * of 809 bytes can decode to a gigabyte; stopping at the size the row recorded keeps memory to the body's
 * own (issue 47), and an object that decodes past it is not the body the row names (BodyCorrupt).
 */
export const decodeLimit = (size?: number | null): number => (size && size > 0 ? size : MAX_UNSIZED_BODY);

/**
 * A stored object's whole bytes decoded in one call (on libuv's thread pool, off the main thread).
 * `size`, the body's uncompressed bytes as its row keeps them, sizes the output buffer: without it
 * zlib works in 16 KiB pieces, one trip to the thread pool and back each (40 for a 600 KB page,
 * bench figures in docs/operations/storage.md); with it, one. A hint only: a wrong size costs speed,
 * never the body.
 */
export async function decodeWhole(data: Buffer, codec: BodyCodec, size?: number | null): Promise<Buffer> {
  const maxOutputLength = decodeLimit(size);
  if (codec === "identity" && data.length > maxOutputLength)
    throw new RangeError(`longer than ${maxOutputLength} bytes`);
  const options = {
    maxOutputLength,
    ...(size && size > 0 ? { chunkSize: Math.max(64, Math.min(size + 1, MAX_DECODE_CHUNK)) } : {}),
  };
  if (codec === "br") return brotliDecompress(data, options);
  if (codec === "gzip") return gunzip(data, options);
  return data;
}
