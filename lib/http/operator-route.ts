import "server-only";
import type { NextRequest } from "next/server";
import { z } from "zod";
import {
  actorOf,
  type Principal,
  principalOf,
  requireRole,
  type Role,
  seesInternalDetail,
  SESSION_COOKIE,
} from "../auth";
import { getConfig } from "../config";
import { BadRequest, badRequestOf, Forbidden, NotSignedIn } from "../errors";
import { requestIdFrom, withRequestId } from "../log";
import { errorResponse } from "./errors";
import { parseJsonBody, refuseBadText } from "./json-body";
import { documented, type RouteNotes } from "./route-doc";

// The one wrapper for operator JSON routes: authentication (session or bearer), the route's required
// role (declared by every route: `role` is not optional, so a route without one does not compile),
// CSRF on mutations, zod parsing of params, query and body; typed errors become answers through
// lib/http/errors.ts (a role too low: 403 {"error":"forbidden","message"}). The spec, with its summary
// and answer schema, is attached to the handler for the API description (lib/openapi/, docs/openapi.json).

type Ctx = { params: Promise<Record<string, string | string[]>> };
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export type OperatorInput<B, Q, P> = {
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
  /** Who asked, and with which role. */
  principal: Principal;
  /** The principal as the audit log names it: the user's e-mail or `token:{name}`. */
  actor: string;
  req: NextRequest;
};

export type RouteSpec<B, Q, P, A> = Omit<RouteNotes, "answer"> & {
  /** The lowest role that may call the route (docs/operations/accounts.md: "Roles and routes"). */
  role: Role;
  body?: B;
  query?: Q;
  params?: P;
  /** The success answer's body: the handler must return what it accepts (or a Response). */
  answer?: A;
};

/** What the handler may return: the answer schema's input when there is one, or a Response. */
type Answer<A> = A extends z.ZodType ? z.input<A> | Response : unknown;

const MAX_JSON_BYTES = 256 * 1024;

export function operatorRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  A extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<B, Q, P, A>, handler: (input: OperatorInput<B, Q, P>) => Promise<Answer<A>>) {
  const { role, ...rest } = spec;
  return documented({ ...rest, access: { kind: "operator", role } }, (req: NextRequest, ctx: Ctx): Promise<Response> =>
    withRequestId(requestIdFrom(req.headers.get("x-request-id")), () => run(req, ctx)),
  );
  async function run(req: NextRequest, ctx: Ctx): Promise<Response> {
    let principal: Principal | undefined;
    try {
      principal = await authenticate(req);
      requireRole(principal, spec.role, `${req.method} ${req.nextUrl.pathname}`);
      const params = await parseWith(spec.params, await ctx.params, "path");
      const query = await parseWith(spec.query, Object.fromEntries(req.nextUrl.searchParams), "query");
      const body = spec.body ? await parseWith(spec.body, await readJson(req), "body") : undefined;
      const result = await handler({ body, query, params, principal, actor: actorOf(principal), req } as OperatorInput<
        B,
        Q,
        P
      >);
      return noStore(result instanceof Response ? result : Response.json(result));
    } catch (err) {
      return noStore(errorResponse(err, { detail: principal !== undefined && seesInternalDetail(principal.role) }));
    }
  }
}

/** Session cookie or bearer token; mutations from a browser session must come from our own origin. */
export async function authenticate(req: NextRequest): Promise<Principal> {
  const principal = await principalOf(req.headers, req.cookies.get(SESSION_COOKIE)?.value);
  if (!principal) throw new NotSignedIn();
  // A bearer token is not sent by browsers on their own, so only cookie sessions need the origin check.
  const cookieSession = principal.kind === "user";
  if (cookieSession && req.method !== "GET" && req.method !== "HEAD" && !sameOrigin(req)) {
    throw new Forbidden("Cross-origin request refused (CSRF check)");
  }
  return principal;
}

export function sameOrigin(req: NextRequest): boolean {
  const origin = req.headers.get("origin");
  if (!origin) return req.headers.get("sec-fetch-site") === "same-origin";
  const allowed = new Set([req.nextUrl.origin, new URL(getConfig().publicUrl).origin]);
  const host = req.headers.get("host");
  if (host) allowed.add(`${req.nextUrl.protocol}//${host}`);
  return allowed.has(origin);
}

/**
 * Operator answers carry secrets shown once (a new token, a destination's or subscription's secret),
 * masks and private data: no browser, proxy or CDN may keep one.
 */
function noStore(res: Response): Response {
  if (!res.headers.has("cache-control")) res.headers.set("Cache-Control", "no-store");
  return res;
}

async function readJson(req: NextRequest): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  const text = await req.text();
  if (text.length === 0) return {};
  if (!/^application\/json\b/i.test(type)) {
    throw new BadRequest("Send the body as JSON (Content-Type: application/json)");
  }
  if (text.length > MAX_JSON_BYTES) throw new BadRequest(`Body larger than ${MAX_JSON_BYTES} bytes`);
  return parseJsonBody(text);
}

async function parseWith(schema: z.ZodType | undefined, value: unknown, where: string) {
  if (!schema) return undefined;
  // No text Tally keeps or filters on holds a NUL, and PostgreSQL refuses one in any text value:
  // refused here, on both stores, instead of failing deep inside a query.
  if (where !== "body" && value && typeof value === "object") refuseBadText(value as Record<string, unknown>, where);
  const parsed = await schema.safeParseAsync(value);
  if (parsed.success) return parsed.data;
  throw badRequestOf(`Invalid ${where}`, parsed.error.issues);
}
