import "server-only";
// lib/signing's surface: what other folders import from it (its files import each other directly).
export * from "./client";
export { defaultHmacScheme, type HeadersLike, type SignatureScheme, signDelivery, verifyDelivery } from "./signature";
