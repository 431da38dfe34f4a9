import "server-only";

// The body store (issue 40): page bodies beside the rows under the SHA-256 of their bytes, compressed,
// on disk (the default) or in S3-compatible object storage. docs/operations/storage.md.

export { type BodyCodec, BODY_CODECS, DEFAULT_CODEC, isBodyCodec } from "./codec";
export {
  BodyCorrupt,
  BodyError,
  type BodyErrorCode,
  BodyMissing,
  BodyUnavailable,
  isBodyError,
  isBodyUnavailable,
} from "./errors";
export { fileBodyStore, type FileBodyStoreOptions } from "./file";
export { openBodyStore } from "./open";
export { bodyStore, bodyStoreReady, closeBodyStore } from "./process";
export { s3BodyStore, type S3BodyStoreOptions } from "./s3";
export { type BodyDescriptor, bodyKey, type BodyStore, type BodyStoreOptions, type StoredBody } from "./store";
export { INLINE_MAX_BYTES } from "./inline";
export {
  BODY_SWEEP_GRACE_MS,
  bodyCensus,
  type BodyCensusView,
  startBodySweep,
  sweepBodies,
  sweepBodiesOnce,
  type SweepReport,
} from "./sweep";
export { keepBody, type KeptBody } from "./keep";
