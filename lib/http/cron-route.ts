import "server-only";
import { timingSafeEqual } from "node:crypto";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { getConfig } from "../config";
import { BadRequest, badRequestOf, NotSignedIn } from "../errors";
import { log, requestIdFrom, withRequestId } from "../log";
import { errorResponse } from "./errors";
import { documented, type RouteNotes } from "./route-doc";

// The one wrapper for scheduled triggers (POST /api/cron/*): `Authorization: Bearer $TALLY_CRON_SECRET`
// and nothing else. An operator session or TALLY_API_TOKEN is refused (401): the cron secret is a
// narrow credential a scheduler holds, and operators have their own routes for the same actions. No
// secret configured means every call is refused; the check never switches itself off.
// Input is the query string merged with an optional JSON body, parsed by the route's zod schema.
// The schema and `notes` are attached to the handler for the API description (lib/openapi/).

const MAX_BODY_BYTES = 16 * 1024;

function cronAuthorized(header: string | null): boolean {
  const secret = getConfig().TALLY_CRON_SECRET;
  const m = /^Bearer (.+)$/.exec(header ?? "");
  if (!secret || !m) return false;
  const given = Buffer.from(m[1]);
  const want = Buffer.from(secret);
  return given.length === want.length && timingSafeEqual(given, want);
}

async function readInput(req: NextRequest): Promise<Record<string, unknown>> {
  const query = Object.fromEntries(req.nextUrl.searchParams);
  const text = await req.text();
  if (text.trim().length === 0) return query;
  if (text.length > MAX_BODY_BYTES) throw new BadRequest(`Body larger than ${MAX_BODY_BYTES} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new BadRequest("Body is not valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new BadRequest("Body must be a JSON object");
  return { ...query, ...body };
}

export function cronRoute<S extends z.ZodType>(
  name: string,
  schema: S,
  handler: (input: z.output<S>) => Promise<unknown>,
  notes: RouteNotes = {},
) {
  const doc = {
    ...notes,
    access: { kind: "cron" },
    query: schema,
    body: schema,
    bodyOptional: true,
  } as const;
  return documented(doc, (req: NextRequest): Promise<Response> =>
    withRequestId(requestIdFrom(req.headers.get("x-request-id")), () => run(req)),
  );
  async function run(req: NextRequest): Promise<Response> {
    try {
      if (!cronAuthorized(req.headers.get("authorization"))) {
        throw new NotSignedIn(
          "Send Authorization: Bearer <TALLY_CRON_SECRET> (sessions and the API token are not accepted here)",
        );
      }
      const parsed = schema.safeParse(await readInput(req));
      if (!parsed.success) throw badRequestOf("Invalid input", parsed.error.issues);
      const result = await handler(parsed.data);
      log.info("cron unit done", { unit: name });
      return Response.json(result);
    } catch (err) {
      return errorResponse(err);
    }
  }
}
