import "server-only";
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";

/**
 * Webhook signature schemes, shared by the simulator (signs) and the receiver (verifies).
 * The platform does not document its scheme, so both conventions named in the contract are here.
 */
export type HmacScheme = {
  kind: "hmac";
  /** Header that carries the signature, e.g. `X-Webhook-Signature`. */
  header: string;
  algorithm: "sha256" | "sha512";
  encoding: "hex" | "base64";
  /** Prefix written when signing (e.g. `sha256=`); verify accepts it, or `<algorithm>=`, or none. */
  prefix?: string;
};

/** Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`. */
export type StandardScheme = { kind: "standard"; toleranceSeconds: number };

export type SignatureScheme = HmacScheme | StandardScheme;

/** The source article's scheme: lowercase hex HMAC-SHA256 of the raw body, no prefix. */
export const defaultHmacScheme: HmacScheme = {
  kind: "hmac",
  header: "X-Webhook-Signature",
  algorithm: "sha256",
  encoding: "hex",
};

export const defaultStandardScheme: StandardScheme = { kind: "standard", toleranceSeconds: 300 };

export type HeadersLike = { get(name: string): string | null };

export type VerifyResult = { ok: true; secretIndex: number } | { ok: false; reason: VerifyFailure };

export type VerifyFailure =
  | "no_secrets"
  | "missing_signature"
  | "malformed_signature"
  | "signature_mismatch"
  | "missing_id"
  | "missing_timestamp"
  | "invalid_timestamp"
  | "timestamp_out_of_tolerance";

const WHSEC_PREFIX = "whsec_";
// Bounds the work one request can cause by stuffing the header with candidate signatures.
const MAX_SIGNATURES = 8;
const HEX_RE = /^[0-9a-fA-F]+$/;
const BASE64_RE = /^[A-Za-z0-9+/]+={0,2}$/;
const TIMESTAMP_RE = /^\d{1,12}$/;

// Decoded candidate signatures land in these fixed buffers: verify runs synchronously on one
// thread, so sharing them avoids an allocation per request on the receiver's hot path.
const scratch = { 32: Buffer.alloc(32), 64: Buffer.alloc(64) } as const;
const digestLength = { sha256: 32, sha512: 64 } as const;

// Key derivation (UTF-8 encode or base64-decode) is cached so repeated verifications only pay for
// the HMAC itself. Bounded: cleared when it grows past a handful of secrets.
const keyCache = new Map<string, KeyObject>();

function keyFor(kind: SignatureScheme["kind"], secret: string): KeyObject {
  const cacheKey = kind + ":" + secret;
  let key = keyCache.get(cacheKey);
  if (key === undefined) {
    if (keyCache.size >= 64) keyCache.clear();
    key = createSecretKey(kind === "standard" ? standardKeyBytes(secret) : Buffer.from(secret, "utf8"));
    keyCache.set(cacheKey, key);
  }
  return key;
}

/** Standard Webhooks keys: `whsec_<base64>` decodes to raw bytes; anything else is used as UTF-8. */
export function standardKeyBytes(secret: string): Buffer {
  return secret.startsWith(WHSEC_PREFIX)
    ? Buffer.from(secret.slice(WHSEC_PREFIX.length), "base64")
    : Buffer.from(secret, "utf8");
}

function standardDigest(key: KeyObject, id: string, timestamp: string, body: Uint8Array | string): Buffer {
  // Feeding the parts separately avoids concatenating the body into a new buffer.
  return createHmac("sha256", key).update(id).update(".").update(timestamp).update(".").update(body).digest();
}

export function signDelivery(
  scheme: SignatureScheme,
  secret: string,
  rawBody: Uint8Array | string,
  ctx: { id: string; timestamp: number },
): Record<string, string> {
  if (scheme.kind === "hmac") {
    const digest = createHmac(scheme.algorithm, keyFor("hmac", secret)).update(rawBody).digest(scheme.encoding);
    return { [scheme.header]: (scheme.prefix ?? "") + digest };
  }
  const ts = String(Math.floor(ctx.timestamp));
  const sig = standardDigest(keyFor("standard", secret), ctx.id, ts, rawBody).toString("base64");
  return { "webhook-id": ctx.id, "webhook-timestamp": ts, "webhook-signature": "v1," + sig };
}

/**
 * Verifies a delivery against every candidate secret (current first, then previous ones during a
 * rotation). Decoding a malformed candidate still goes through the same constant-time comparison,
 * so timing does not reveal how far a forged signature got. Stops at the first match only: a match
 * means the sender already holds a secret, so there is nothing left to hide.
 */
export function verifyDelivery(
  scheme: SignatureScheme,
  secrets: readonly string[],
  rawBody: Uint8Array,
  headers: HeadersLike,
  now: number,
): VerifyResult {
  if (secrets.length === 0) return { ok: false, reason: "no_secrets" };
  return scheme.kind === "hmac"
    ? verifyHmac(scheme, secrets, rawBody, headers)
    : verifyStandard(scheme, secrets, rawBody, headers, now);
}

function stripPrefix(value: string, scheme: HmacScheme): string {
  if (scheme.prefix && value.startsWith(scheme.prefix)) return value.slice(scheme.prefix.length);
  const algPrefix = scheme.algorithm + "=";
  return value.startsWith(algPrefix) ? value.slice(algPrefix.length) : value;
}

/** Decodes into the shared scratch buffer; returns false (buffer zeroed) when the text is malformed. */
function decodeInto(target: Buffer, text: string, encoding: "hex" | "base64"): boolean {
  const n = target.length;
  const wellFormed =
    encoding === "hex"
      ? text.length === n * 2 && HEX_RE.test(text)
      : text.length === Math.ceil(n / 3) * 4 && BASE64_RE.test(text);
  if (!wellFormed) {
    target.fill(0);
    return false;
  }
  return target.write(text, 0, encoding) === n;
}

function verifyHmac(
  scheme: HmacScheme,
  secrets: readonly string[],
  body: Uint8Array,
  headers: HeadersLike,
): VerifyResult {
  const raw = headers.get(scheme.header);
  if (raw === null || raw.trim() === "") return { ok: false, reason: "missing_signature" };
  const target = scratch[digestLength[scheme.algorithm]];
  const wellFormed = decodeInto(target, stripPrefix(raw.trim(), scheme), scheme.encoding);
  for (let i = 0; i < secrets.length; i++) {
    const digest = createHmac(scheme.algorithm, keyFor("hmac", secrets[i])).update(body).digest();
    if (timingSafeEqual(target, digest) && wellFormed) return { ok: true, secretIndex: i };
  }
  return { ok: false, reason: wellFormed ? "signature_mismatch" : "malformed_signature" };
}

function verifyStandard(
  scheme: StandardScheme,
  secrets: readonly string[],
  body: Uint8Array,
  headers: HeadersLike,
  now: number,
): VerifyResult {
  const id = headers.get("webhook-id");
  const ts = headers.get("webhook-timestamp");
  const sigHeader = headers.get("webhook-signature");
  if (sigHeader === null || sigHeader.trim() === "") return { ok: false, reason: "missing_signature" };
  if (id === null || id === "") return { ok: false, reason: "missing_id" };
  if (ts === null || ts === "") return { ok: false, reason: "missing_timestamp" };
  if (!TIMESTAMP_RE.test(ts)) return { ok: false, reason: "invalid_timestamp" };
  // Cheap rejection of replays before any HMAC work.
  if (Math.abs(now - Number(ts)) > scheme.toleranceSeconds) return { ok: false, reason: "timestamp_out_of_tolerance" };

  const digests: Buffer[] = [];
  for (const secret of secrets) digests.push(standardDigest(keyFor("standard", secret), id, ts, body));
  const target = scratch[32];
  let seen = 0;
  let anyWellFormed = false;
  let pos = 0;
  while (pos < sigHeader.length && seen < MAX_SIGNATURES) {
    let end = sigHeader.indexOf(" ", pos);
    if (end === -1) end = sigHeader.length;
    if (end > pos) {
      seen++;
      const isV1 = sigHeader.startsWith("v1,", pos);
      const wellFormed = isV1 && decodeInto(target, sigHeader.slice(pos + 3, end), "base64");
      if (!wellFormed) target.fill(0);
      anyWellFormed ||= wellFormed;
      for (let i = 0; i < digests.length; i++) {
        if (timingSafeEqual(target, digests[i]) && wellFormed) return { ok: true, secretIndex: i };
      }
    }
    pos = end + 1;
  }
  return { ok: false, reason: anyWellFormed ? "signature_mismatch" : "malformed_signature" };
}
