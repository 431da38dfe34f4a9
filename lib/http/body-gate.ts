// What server.ts answers before Next reads a byte of the body: the sign-in route takes at most
// LOGIN_MAX_BODY_BYTES, and a request with a body but no credential at all (no Authorization header,
// no session cookie) to any other app path is answered 401 at once, so an anonymous caller cannot make
// Tally buffer megabytes (Next's proxy buffers up to its own limit before the proxy's 401). The
// receiver (/webhooks/…) has its own limit and never comes here.

export const LOGIN_MAX_BODY_BYTES = 8 * 1024;
/** An anonymous body this small still reaches the route (the public sign-in form, CSRF probes). */
export const ANONYMOUS_MAX_BODY_BYTES = 8 * 1024;

const PUBLIC_WITH_OWN_CREDENTIAL = /^\/api\/(cron\/|metrics$)/;

export type GateAnswer = { status: number; body: { error: string; message: string } };

export function gateRequest(req: {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}): GateAnswer | null {
  const method = (req.method ?? "GET").toUpperCase();
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return null;
  const path = (req.url ?? "/").split("?")[0];
  const length = Number(req.headers["content-length"] ?? NaN);
  const chunked = req.headers["content-length"] === undefined && req.headers["transfer-encoding"] !== undefined;
  const over = (max: number) => chunked || (Number.isFinite(length) && length > max);
  if (path === "/api/auth/login") {
    return over(LOGIN_MAX_BODY_BYTES)
      ? {
          status: 413,
          body: { error: "payload_too_large", message: `A sign-in body is at most ${LOGIN_MAX_BODY_BYTES} bytes` },
        }
      : null;
  }
  if (PUBLIC_WITH_OWN_CREDENTIAL.test(path)) return null;
  const cookie = String(req.headers.cookie ?? "");
  const credential = req.headers.authorization !== undefined || /(^|;\s*)tally_session=/.test(cookie);
  if (!credential && over(ANONYMOUS_MAX_BODY_BYTES))
    return {
      status: 401,
      body: { error: "unauthorized", message: "Sign in, or send Authorization: Bearer <an API token>" },
    };
  return null;
}
