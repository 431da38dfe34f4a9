// Talking to a running Tally as people with roles: sign-in, session cookies and JSON calls.
import { createHash } from "node:crypto";
import type { TallyServer } from "./tally-server";

export const PASSWORD = "a long enough password";

let client = 0;
/** A client address of its own per sign-in, so the per-address throttle never gets in the way. */
const nextClient = () => `10.77.${Math.floor(++client / 250)}.${client % 250}`;

export async function signIn(server: TallyServer, body: { email?: string; password: string }, address = nextClient()) {
  return fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": address },
    body: JSON.stringify(body),
  });
}

export function cookieOf(res: Response): string {
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  if (!/^tally_session=.+/.test(cookie)) throw new Error(`no session cookie (status ${res.status})`);
  return cookie;
}

/** A new session for the account; throws unless the sign-in worked. */
export async function sessionFor(server: TallyServer, email: string, password = PASSWORD): Promise<string> {
  return cookieOf(await signIn(server, { email, password }));
}

/** The short id GET /api/auth/sessions shows for a session cookie. */
export function shortSessionId(cookie: string): string {
  return createHash("sha256")
    .update(cookie.replace(/^tally_session=/, ""))
    .digest("hex")
    .slice(0, 16);
}

export type As = { cookie: string } | { token: string };

export async function call(server: TallyServer, as: As, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { origin: server.url };
  if ("cookie" in as) headers.cookie = as.cookie;
  else headers.authorization = `Bearer ${as.token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(server.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await res.json().catch(() => null);
  return { status: res.status, json: json as Record<string, unknown> };
}
