import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { bearerActor, SESSION_COOKIE, verifySessionToken } from "../auth/session";
import { getConfig } from "../config";
import { BadRequest, Forbidden, NotSignedIn } from "../errors";
import { requestIdFrom, withRequestId } from "../log";
import { errorResponse } from "./errors";

// The one wrapper for operator JSON routes: authentication (session or bearer), CSRF on mutations,
// zod parsing of params, query and body; typed errors become answers through lib/http/errors.ts.

type Ctx = { params: Promise<Record<string, string | string[]>> };
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export type OperatorInput<B, Q, P> = {
  body: Out<B>;
  query: Out<Q>;
  params: Out<P>;
  actor: string;
  req: NextRequest;
};

const MAX_JSON_BYTES = 256 * 1024;

export function operatorRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(
  spec: { body?: B; query?: Q; params?: P },
  handler: (input: OperatorInput<B, Q, P>) => Promise<unknown>,
) {
  return (req: NextRequest, ctx: Ctx): Promise<Response> =>
    withRequestId(requestIdFrom(req.headers.get("x-request-id")), () => run(req, ctx));
  async function run(req: NextRequest, ctx: Ctx): Promise<Response> {
    try {
      const actor = await authenticate(req);
      const params = await parseWith(spec.params, await ctx.params, "path");
      const query = await parseWith(spec.query, Object.fromEntries(req.nextUrl.searchParams), "query");
      const body = spec.body ? await parseWith(spec.body, await readJson(req), "body") : undefined;
      const result = await handler({ body, query, params, actor, req } as OperatorInput<B, Q, P>);
      return result instanceof Response ? result : NextResponse.json(result);
    } catch (err) {
      return errorResponse(err);
    }
  }
}

/** Session cookie or bearer token; mutations from a browser session must come from our own origin. */
export async function authenticate(req: NextRequest): Promise<string> {
  const bearer = bearerActor(req.headers.get("authorization"));
  if (bearer) return bearer;
  const actor = await verifySessionToken(req.cookies.get(SESSION_COOKIE)?.value);
  if (!actor) throw new NotSignedIn();
  if (req.method !== "GET" && req.method !== "HEAD" && !sameOrigin(req)) {
    throw new Forbidden("Cross-origin request refused (CSRF check)");
  }
  return actor;
}

export function sameOrigin(req: NextRequest): boolean {
  const origin = req.headers.get("origin");
  if (!origin) return req.headers.get("sec-fetch-site") === "same-origin";
  const allowed = new Set([req.nextUrl.origin, new URL(getConfig().publicUrl).origin]);
  const host = req.headers.get("host");
  if (host) allowed.add(`${req.nextUrl.protocol}//${host}`);
  return allowed.has(origin);
}

async function readJson(req: NextRequest): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  const text = await req.text();
  if (text.length === 0) return {};
  if (!/^application\/json\b/i.test(type)) {
    throw new BadRequest("Send the body as JSON (Content-Type: application/json)");
  }
  if (text.length > MAX_JSON_BYTES) throw new BadRequest(`Body larger than ${MAX_JSON_BYTES} bytes`);
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequest("Body is not valid JSON");
  }
}

async function parseWith(schema: z.ZodType | undefined, value: unknown, where: string) {
  if (!schema) return undefined;
  const parsed = await schema.safeParseAsync(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  const first = issues[0];
  throw new BadRequest(
    `Invalid ${where}${first ? `: ${first.path ? `${first.path}: ` : ""}${first.message}` : ""}`,
    issues,
  );
}
