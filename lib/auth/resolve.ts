import "server-only";
import { createHmac } from "node:crypto";
import { getConfig } from "../config";
import type { Principal } from "./principal";
import { isRole } from "./roles";
import { looksLikeSessionCookie } from "./session";
import { resolveSession } from "./sessions";
import { secretEquals } from "./session";
import { resolveToken } from "./tokens";

// Who sent a request: `Authorization: Bearer <token>` first, else the session cookie. One indexed
// read. The proxy resolves every request once and hands the result to the route or page in
// PRINCIPAL_HEADER, signed with this process's session key and valid for a few seconds, so the
// handler does not read the session again; a header that does not verify is ignored (resolved afresh).

export const PRINCIPAL_HEADER = "x-tally-principal";
const FORWARD_TTL_MS = 30_000;

export async function resolvePrincipal(
  authorization: string | null,
  cookie: string | undefined,
): Promise<Principal | null> {
  if (authorization) {
    const m = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    return m ? resolveToken(m[1]) : null;
  }
  return looksLikeSessionCookie(cookie) ? resolveSession(cookie) : null;
}

function sign(payload: string): string {
  return createHmac("sha256", getConfig().sessionSecret).update(payload).digest("base64url");
}

export function encodeForwarded(p: Principal, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ p, t: now })).toString("base64url");
  return `${payload}.${sign(payload)}`;
}

export function decodeForwarded(value: string | null, now = Date.now()): Principal | null {
  if (!value) return null;
  const [payload, mac] = value.split(".");
  if (!payload || !mac || !secretEquals(mac, sign(payload))) return null;
  try {
    const { p, t } = JSON.parse(Buffer.from(payload, "base64url").toString()) as { p: Principal; t: number };
    if (typeof t !== "number" || Math.abs(now - t) > FORWARD_TTL_MS || !isRole(p?.role)) return null;
    return p;
  } catch {
    return null;
  }
}

/** The request's principal: the proxy's verified header, else resolved from the credentials. */
export async function principalOf(headers: Headers, cookie: string | undefined): Promise<Principal | null> {
  return decodeForwarded(headers.get(PRINCIPAL_HEADER)) ?? resolvePrincipal(headers.get("authorization"), cookie);
}
