import "server-only";
import { timingSafeEqual, createHash } from "node:crypto";
import { SignJWT, jwtVerify } from "jose";
import { getConfig } from "../config";

// Operator sessions: a signed (HS256), httpOnly, SameSite=Lax cookie with an expiry.

export const SESSION_COOKIE = "tally_session";

function key(): Uint8Array {
  return new TextEncoder().encode(getConfig().sessionSecret);
}

export async function createSessionToken(actor = "operator"): Promise<{ token: string; expires: Date }> {
  const ttlSeconds = getConfig().TALLY_SESSION_TTL_HOURS * 3600;
  const expires = new Date(Date.now() + ttlSeconds * 1000);
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(actor)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expires.getTime() / 1000))
    .sign(key());
  return { token, expires };
}

/** The actor of a valid, unexpired session token; null for anything else. */
export async function verifySessionToken(token: string | undefined): Promise<string | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key(), { algorithms: ["HS256"] });
    return typeof payload.sub === "string" ? payload.sub : null;
  } catch {
    return null;
  }
}

/** Constant-time comparison of a presented secret with the expected one (hashes equalise lengths). */
export function secretEquals(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

export function passwordMatches(presented: string): boolean {
  return secretEquals(presented, getConfig().operatorPassword);
}

/** The actor for a bearer token, or null. */
export function bearerActor(authorization: string | null): string | null {
  const token = getConfig().TALLY_API_TOKEN;
  if (!token || !authorization) return null;
  const m = /^Bearer\s+(.+)$/i.exec(authorization.trim());
  return m && secretEquals(m[1], token) ? "api-token" : null;
}

export function sessionCookieOptions(expires: Date) {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: getConfig().publicUrl.startsWith("https://"),
    path: "/",
    expires,
  };
}
