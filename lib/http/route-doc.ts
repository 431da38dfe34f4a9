import type { z } from "zod";
import type { Role } from "../auth";

// What a route handler says about itself for the API description (docs/openapi.json, GET /api/openapi.json):
// the wrappers (operator-route.ts, cron-route.ts) attach the very zod schemas they parse with, so the
// description cannot drift from what the route accepts. Routes outside the wrappers (health, metrics,
// login) attach theirs with `documented()`. lib/openapi/ reads them back with `routeDocOf()`.

/** Who may call a route. */
export type Access =
  /** a session cookie or `Authorization: Bearer <API token>`, of this role or above */
  | { kind: "operator"; role: Role }
  /** no credentials (the health check, the sign-in) */
  | { kind: "public" }
  /** `Authorization: Bearer $TALLY_CRON_SECRET` only */
  | { kind: "cron" }
  /** `Authorization: Bearer $TALLY_METRICS_TOKEN` (or the API token) */
  | { kind: "metrics" };

/** What a success answer's body is: JSON (the default), a CSV download, JSONL or CSV by `format`, or Prometheus text. */
export type Produces = "json" | "csv" | "jsonl-or-csv" | "prometheus";

/** Error statuses a route can answer in the Error shape: for a wrapped route, beyond those its wrapper always
 * can (operatorRoute: 401, 500, 400 with a schema, 403 above viewer or on a mutation; cronRoute: 400, 401, 500). */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 422 | 429 | 500 | 502 | 503 | 504;

/** The statuses a call that reaches the platform can end in (lib/http/errors.ts's platform_* codes, and 429 passed on). */
export const PLATFORM_ERRORS = [402, 404, 409, 422, 429, 502, 503, 504] as const satisfies readonly ErrorStatus[];

/** The description's part a route states itself (the wrapper adds access and the schemas it parses with). */
export type RouteNotes = {
  /** One line: what the route does. */
  summary?: string;
  /** More, when one line is not enough. */
  description?: string;
  /** The success answer's JSON body, where a contract describes it. */
  answer?: z.ZodType;
  /** The success status (200 unless said). */
  status?: 200 | 201 | 202;
  produces?: Produces;
  /** The error statuses the handler's domain can answer (not found, conflict, the platform's own…), in the Error shape. */
  errors?: readonly ErrorStatus[];
  /** Answers of another shape than the success or the Error one (the health check's 503), by status. */
  otherAnswers?: Record<number, { description: string; answer?: z.ZodType }>;
  /** A body the handler reads itself (a list too big or too varied for the wrapper's JSON), described for the
   * document alone: its JSON schema, and the text types it also takes with their options in the query. */
  reads?: { json: z.ZodType; text: readonly ("text/plain" | "text/csv")[]; textQuery?: z.ZodType };
};

export type RouteDoc = RouteNotes & {
  access: Access;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** The body is optional (cron routes: the same fields may come in the query string instead). */
  bodyOptional?: boolean;
};

const DOC = Symbol.for("tally.routeDoc");

/** Attaches `doc` to a route handler and returns the handler. */
export function documented<F extends (...args: never[]) => unknown>(doc: RouteDoc, handler: F): F {
  Object.defineProperty(handler, DOC, { value: doc, enumerable: false });
  return handler;
}

/** The description attached to a route handler, if any. */
export function routeDocOf(handler: unknown): RouteDoc | undefined {
  if (typeof handler !== "function") return undefined;
  return (handler as unknown as Record<symbol, RouteDoc | undefined>)[DOC];
}
