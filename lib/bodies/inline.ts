import "server-only";

/**
 * Bodies of at most this many (uncompressed) bytes may stay in their row instead of the body store.
 * Measured by bench/bodies-codec.ts (docs/operations/storage.md): an object costs a fixed 2-20 ms
 * a put on files (two fsyncs and a rename) and about 6 ms on a local S3 before any network, an inline
 * row 0.05 ms, so for a small body the object is all overhead. 2 KiB is where the bytes would leave the
 * row's own page anyway (PostgreSQL moves values over about 2 KB out of line into TOAST; SQLite spills
 * past about 4 KB into overflow pages), so up to it an inline body costs the table little; beyond it
 * come real pages (the smallest realistic HTML is 20 KB), which gain from being stored once per content.
 * What stays under it: error pages, short JSON answers, empty shells and soft 404s.
 */
export const INLINE_MAX_BYTES = 2048;
