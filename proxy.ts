// Proxy — every page and /api route needs an operator session or the bearer token; the receiver
// under /webhooks/ never reaches this file (see matcher) so it pays nothing for it. Every request
// gets a request id (the caller's X-Request-Id when sane, else a new one), passed on to the route
// (lib/http wrappers log with it) and echoed back on the answer.
import { NextResponse, type NextRequest } from "next/server";
import { bearerActor, SESSION_COOKIE, verifySessionToken } from "@/lib/auth/session";
import { getConfig } from "@/lib/config";
import { contentSecurityPolicy } from "@/lib/http/security-headers";

const PUBLIC = new Set(["/login", "/api/health", "/api/auth/login"]);
// Scheduled triggers carry their own credential (TALLY_CRON_SECRET), checked by every route under it
// through lib/http/cron-route.ts; sessions and the API token do not open them.
const CRON_PREFIX = "/api/cron/";
// Prometheus holds TALLY_METRICS_TOKEN, which only the route itself knows to accept (lib/metrics/auth.ts).
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
  if (!PUBLIC.has(pathname) && !pathname.startsWith(CRON_PREFIX) && pathname !== METRICS) {
    const actor =
      bearerActor(req.headers.get("authorization")) ??
      (await verifySessionToken(req.cookies.get(SESSION_COOKIE)?.value));
    if (!actor) {
      if (isApi) {
        return NextResponse.json(
          { error: "unauthorized", message: "Sign in, or send Authorization: Bearer <TALLY_API_TOKEN>" },
          { status: 401 },
        );
      }
      const login = new URL("/login", req.url);
      if (pathname !== "/") login.searchParams.set("next", `${pathname}${search}`);
      return NextResponse.redirect(login);
    }
  }
  const headers = new Headers(req.headers);
  headers.set("x-request-id", id);
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
  matcher: ["/((?!webhooks/|webhooks$|_next/static|_next/image|favicon.ico).*)"],
};
