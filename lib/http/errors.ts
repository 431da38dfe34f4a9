import "server-only";
import { z } from "zod";
import { isBodyUnavailable } from "../bodies";
import { BodyStoreUnavailable, ERROR_CODES, TallyError, type ErrorCode } from "../errors";
import { log } from "../log";
import { asPlatformError, fromPlatformError } from "../platform";

// The one map from lib/'s error codes to HTTP statuses, used by every operator route, and the one
// shape of an error answer (described in docs/openapi.json as the Error schema).

export const errorBodySchema = z.object({
  error: z.enum([...ERROR_CODES, "internal_error"]).describe("What went wrong, as a stable code a script can test"),
  message: z.string().describe("What went wrong, for people"),
  details: z.unknown().optional().describe("More about it, where there is more (e.g. each invalid field)"),
});
type ErrorBody = z.input<typeof errorBodySchema>;

export const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  upstream_error: 502,
  // the platform refused the caller's input: still the caller's to fix
  platform_rejected: 422,
  platform_payment_required: 402,
  platform_conflict: 409,
  platform_not_found: 404,
  // Tally's own API key: a gateway problem, never the caller's 401
  platform_auth_failed: 502,
  platform_timeout: 504,
  // the platform counts as down: nothing sent, Retry-After says when the client tries it again
  platform_unavailable: 503,
  // the body store did not answer a read the answer needs: Retry-After
  body_store_unavailable: 503,
};

/** Seconds a client waits before asking again for an answer the body store could not give. */
const BODY_STORE_RETRY_SECONDS = 30;

/** What the answer may say of Tally's insides: `detail` (an admin's) gives the body store's own words. */
export type ErrorAudience = { detail?: boolean };

/** A body store that did not answer, in the words a caller without `detail` gets (issue 47 item 6). */
const BODY_STORE_PLAIN = "A body this answer needs cannot be read now: the body store did not answer (try again)";

/**
 * Maps any thrown value to a JSON answer: typed errors to their status, the rest to a 500. A body store
 * that did not answer is a 503 whose message names the store (its location, the system's error) only
 * for `detail`; the log has it always.
 */
export function errorResponse(err: unknown, audience: ErrorAudience = {}): Response {
  const platform = asPlatformError(err);
  if (platform) return errorResponse(fromPlatformError(platform));
  if (isBodyUnavailable(err)) {
    log.warn("body store unavailable for an answer", { error: err.message });
    const message = audience.detail ? err.message : BODY_STORE_PLAIN;
    return errorResponse(new BodyStoreUnavailable(message, BODY_STORE_RETRY_SECONDS));
  }
  if (err instanceof TallyError) {
    const headers: Record<string, string> = {};
    if ("retryAfterSeconds" in err) headers["Retry-After"] = String(err.retryAfterSeconds);
    const body: ErrorBody = { error: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
    return Response.json(body, { status: STATUS[err.code], headers });
  }
  log.error("unhandled error in operator route", { error: String(err) });
  const body: ErrorBody = { error: "internal_error", message: "Something failed on our side" };
  return Response.json(body, { status: 500 });
}
