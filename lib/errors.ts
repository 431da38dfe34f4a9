import "server-only";

// Typed errors thrown by lib/ and mapped to HTTP answers once, in lib/http/operator-route.ts.

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends AppError {
  constructor(message: string, details?: unknown) {
    super(400, "bad_request", message, details);
  }
}
export class Unauthorized extends AppError {
  constructor(message = "Sign in, or send Authorization: Bearer <TALLY_API_TOKEN>") {
    super(401, "unauthorized", message);
  }
}
export class Forbidden extends AppError {
  constructor(message: string) {
    super(403, "forbidden", message);
  }
}
export class NotFound extends AppError {
  constructor(message: string) {
    super(404, "not_found", message);
  }
}
export class Conflict extends AppError {
  constructor(message: string, details?: unknown) {
    super(409, "conflict", message, details);
  }
}
export class TooManyRequests extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, "too_many_requests", message);
  }
}
/** The platform answered with an error or could not be reached. */
export class UpstreamFailure extends AppError {
  constructor(message: string, details?: unknown) {
    super(502, "upstream_error", message, details);
  }
}
