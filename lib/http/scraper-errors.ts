import "server-only";
import { AppError, TooManyRequests } from "../errors";
import { Conflict, NotFound, PaymentRequired, RateLimited, Timeout, Unauthorized, Validation, type ScraperError } from "../scraper";

// What an operator or script sees when the platform refuses or fails: the platform's own reason,
// under a status that says whose problem it is. Bad input (the platform's 400/422) stays a 4xx; a
// platform that rejects Tally's API key is Tally's configuration problem (502), not the caller's 401.
export function fromScraperError(err: ScraperError): AppError {
  if (err instanceof Validation) return new AppError(422, "platform_rejected", err.message, err.details.length ? err.details : undefined);
  if (err instanceof RateLimited) {
    return new TooManyRequests(`The platform is rate limiting Tally: ${err.message}`, Math.max(1, Math.ceil(err.retryAfterMs / 1000)));
  }
  if (err instanceof PaymentRequired) return new AppError(402, "platform_payment_required", err.message);
  if (err instanceof Conflict) return new AppError(409, "platform_conflict", err.message);
  if (err instanceof NotFound) return new AppError(404, "platform_not_found", err.message);
  if (err instanceof Unauthorized) return new AppError(502, "platform_auth_failed", `The platform rejected Tally's API key: ${err.message}`);
  if (err instanceof Timeout) return new AppError(504, "platform_timeout", err.message);
  return new AppError(502, "upstream_error", err.message, err.correlationId ? { correlationId: err.correlationId } : undefined);
}
