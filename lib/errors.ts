import "server-only";

// Errors lib/ throws, independent of any transport: each carries a stable code (what went wrong, in
// words a script can test) and a message for people. The route wrapper alone turns codes into HTTP
// statuses (lib/http/errors.ts); the CLI turns them into messages and exit codes.

export const ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "too_many_requests",
  "upstream_error",
  "platform_rejected",
  "platform_payment_required",
  "platform_conflict",
  "platform_not_found",
  "platform_auth_failed",
  "platform_timeout",
  "platform_unavailable",
  "body_store_unavailable",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class TallyError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends TallyError {
  constructor(message: string, details?: unknown) {
    super("bad_request", message, details);
  }
}
/**
 * A 400 for a schema's issues: each one in `details` by its dotted path (under `under`, when the value sat
 * below a field), the first one in the message ("Invalid body: urls.3: …").
 */
export function badRequestOf(
  prefix: string,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  under: readonly string[] = [],
): BadRequest {
  const list = issues.map((i) => ({ path: [...under, ...i.path.map(String)].join("."), message: i.message }));
  const first = list[0];
  return new BadRequest(`${prefix}${first ? `: ${first.path ? `${first.path}: ` : ""}${first.message}` : ""}`, list);
}
export class NotSignedIn extends TallyError {
  constructor(message = "Sign in, or send Authorization: Bearer <an API token>") {
    super("unauthorized", message);
  }
}
export class Forbidden extends TallyError {
  constructor(message: string) {
    super("forbidden", message);
  }
}
export class NotFound extends TallyError {
  constructor(message: string) {
    super("not_found", message);
  }
}
export class Conflict extends TallyError {
  constructor(message: string, details?: unknown) {
    super("conflict", message, details);
  }
}
export class TooManyRequests extends TallyError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super("too_many_requests", message);
  }
}
/**
 * The platform counts as down (its calls failed in a row: the client's circuit breaker holds calls
 * back); nothing was sent. Retry after the seconds given.
 */
export class PlatformUnavailable extends TallyError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super("platform_unavailable", message);
  }
}
/**
 * The body store did not answer a read a JSON answer needs (no answer in time, a refused connection,
 * an S3 or disk error): nothing is wrong with the request; retry after the seconds given.
 */
export class BodyStoreUnavailable extends TallyError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super("body_store_unavailable", message);
  }
}
/** The platform answered with an error or could not be reached. */
export class UpstreamFailure extends TallyError {
  constructor(
    message: string,
    details?: unknown,
    code: Extract<ErrorCode, `platform_${string}` | "upstream_error"> = "upstream_error",
  ) {
    super(code, message, details);
  }
}
