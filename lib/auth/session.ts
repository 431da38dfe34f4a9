import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { getConfig } from "../config";

// The session cookie holds 32 random bytes; the Session row's id is their SHA-256, so a copy of the
// database opens no session. httpOnly, SameSite=Lax, Secure behind https.

export const SESSION_COOKIE = "tally_session";

export function newSessionSecret(): { cookie: string; id: string } {
  const cookie = randomBytes(32).toString("base64url");
  return { cookie, id: sessionIdOf(cookie) };
}

/** The Session row id for a cookie value; null for values that cannot be one of ours. */
export function sessionIdOf(cookie: string | undefined | null): string {
  return createHash("sha256")
    .update(cookie ?? "")
    .digest("hex");
}

export function looksLikeSessionCookie(cookie: string | undefined | null): cookie is string {
  return typeof cookie === "string" && /^[A-Za-z0-9_-]{43}$/.test(cookie);
}

/** Constant-time comparison of a presented secret with the expected one (hashes equalise lengths). */
export function secretEquals(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
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

export const clearedSessionCookie = { httpOnly: true, sameSite: "lax" as const, path: "/", maxAge: 0 };
