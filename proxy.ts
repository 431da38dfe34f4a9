// Proxy — every page and /api route needs an operator session or the bearer token; the receiver
// under /webhooks/ never reaches this file (see matcher) so it pays nothing for it.
import { NextResponse, type NextRequest } from "next/server";
import { bearerActor, SESSION_COOKIE, verifySessionToken } from "@/lib/auth/session";
import { getConfig } from "@/lib/config";
import { contentSecurityPolicy } from "@/lib/http/security-headers";

const PUBLIC = new Set(["/login", "/api/health", "/api/auth/login"]);
// Scheduled triggers carry their own credential (TALLY_CRON_SECRET), checked by every route under it
// through lib/http/cron-route.ts; sessions and the API token do not open them.
const CRON_PREFIX = "/api/cron/";

export async function proxy(req: NextRequest) {
  const { pathname, search } = req.nextUrl;
  const isApi = pathname.startsWith("/api/");
  if (!PUBLIC.has(pathname) && !pathname.startsWith(CRON_PREFIX)) {
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
  if (isApi) return NextResponse.next();
  // Pages get a per-request nonce; Next applies it to its own inline scripts.
  const nonce = btoa(crypto.randomUUID());
  const csp = contentSecurityPolicy(nonce, getConfig().NODE_ENV === "development");
  const headers = new Headers(req.headers);
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
