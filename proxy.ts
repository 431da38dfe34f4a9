// Proxy — every page and /api route needs a live session or an API token; the receiver under
// /webhooks/ never reaches this file (see matcher) so it pays nothing for it. The session or token is
// looked up once here (one indexed read: a revoked session is refused at once) and handed on, signed,
// to the route or page in PRINCIPAL_HEADER, so it is not read a second time. Every request gets a
// request id (the caller's X-Request-Id when sane, else a new one), passed on to the route (lib/http
// wrappers log with it) and echoed back on the answer.
import { NextResponse, type NextRequest } from "next/server";
import { encodeForwarded, PRINCIPAL_HEADER, resolvePrincipal } from "@/lib/auth/resolve";
import { SESSION_COOKIE } from "@/lib/auth/session";
import { getConfig } from "@/lib/config";
import { contentSecurityPolicy } from "@/lib/http/security-headers";

const PUBLIC = new Set(["/login", "/api/health", "/api/ready", "/api/auth/login"]);
// Scheduled triggers carry their own credential (TALLY_CRON_SECRET), checked by every route under it
// through lib/http/cron-route.ts; sessions and the API token do not open them.
const CRON_PREFIX = "/api/cron/";
// Prometheus holds TALLY_METRICS_TOKEN, which only the route itself knows to accept (lib/metrics/token.ts).
const METRICS = "/api/metrics";
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function requestId(req: NextRequest): string {
  const given = req.headers.get("x-request-id");
  return given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

export async function proxy(req: NextRequest) {
  const isApi = req.nextUrl.pathname.startsWith("/api/");
  const id = requestId(req);
  const res = await decide(req, isApi, id);
  res.headers.set("x-request-id", id);
  return res;
}

async function decide(req: NextRequest, isApi: boolean, id: string): Promise<NextResponse> {
  const { pathname, search } = req.nextUrl;
  const headers = new Headers(req.headers);
  headers.set("x-request-id", id);
  // Only this proxy may say who the caller is.
  headers.delete(PRINCIPAL_HEADER);
  if (!PUBLIC.has(pathname) && !pathname.startsWith(CRON_PREFIX) && pathname !== METRICS) {
    const principal = await resolvePrincipal(req.headers.get("authorization"), req.cookies.get(SESSION_COOKIE)?.value);
    if (!principal) {
      if (isApi) {
        return NextResponse.json(
          { error: "unauthorized", message: "Sign in, or send Authorization: Bearer <an API token>" },
          { status: 401 },
        );
      }
      const login = new URL("/login", req.url);
      if (pathname !== "/") login.searchParams.set("next", `${pathname}${search}`);
      const res = NextResponse.redirect(login);
      // A cookie that names no live session (revoked, expired) is cleared.
      if (req.cookies.has(SESSION_COOKIE))
        res.cookies.set(SESSION_COOKIE, "", { httpOnly: true, sameSite: "lax", path: "/", maxAge: 0 });
      return res;
    }
    headers.set(PRINCIPAL_HEADER, encodeForwarded(principal));
  }
  if (isApi) return NextResponse.next({ request: { headers } });
  // Pages get a per-request nonce; Next applies it to its own inline scripts.
  const nonce = btoa(crypto.randomUUID());
  const csp = contentSecurityPolicy(nonce, getConfig().NODE_ENV === "development");
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", csp);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("content-security-policy", csp);
  return res;
}

export const config = {
  // The icons are public: a browser asks for them before (and on) the login page.
  matcher: ["/((?!webhooks/|webhooks$|_next/static|_next/image|favicon.ico|icon.svg|apple-icon.png).*)"],
};
