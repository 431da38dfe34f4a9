import "server-only";
import { AppError, TooManyRequests } from "../errors";
import type { PlatformError } from "../platform/error-fields";

// What an operator or script sees when the platform refuses or fails: the platform's own reason,
// under a status that says whose problem it is. Bad input (the platform's 400/422) stays a 4xx; a
// platform that rejects Tally's API key is Tally's configuration problem (502), not the caller's 401.
export function fromPlatformError(e: PlatformError): AppError {
  if (e.status === 400 || e.status === 422) return new AppError(422, "platform_rejected", e.message, e.details?.length ? e.details : undefined);
  if (e.status === 429 || e.code === "RATE_LIMITED") {
    return new TooManyRequests(`The platform is rate limiting Tally: ${e.message}`, Math.max(1, Math.ceil((e.retryAfterMs ?? 1000) / 1000)));
  }
  if (e.status === 402) return new AppError(402, "platform_payment_required", e.message);
  if (e.status === 409) return new AppError(409, "platform_conflict", e.message);
  if (e.status === 404) return new AppError(404, "platform_not_found", e.message);
  if (e.status === 401 || e.status === 403) return new AppError(502, "platform_auth_failed", `The platform rejected Tally's API key: ${e.message}`);
  if (e.code === "TIMEOUT") return new AppError(504, "platform_timeout", e.message);
  return new AppError(502, "upstream_error", e.message, e.correlationId ? { correlationId: e.correlationId } : undefined);
}
