import "server-only";
import { PlatformUnavailable, TallyError, TooManyRequests, UpstreamFailure } from "../errors";
import type { PlatformErrorFields } from "./error-fields";

// What an operator or script learns when the platform refuses or fails: the platform's own reason,
// under a code that says whose problem it is. Bad input (the platform's 400/422) is the caller's; a
// platform that rejects Tally's API key is Tally's configuration problem, not the caller's sign-in.
export function fromPlatformError(e: PlatformErrorFields): TallyError {
  // The platform counts as down (calls failed in a row): a 503 with when the client tries again, not
  // a 502 for one failed call, so a script backs off instead of hammering Tally.
  if (e.platformDownMs !== undefined)
    return new PlatformUnavailable(
      `The platform is unavailable: ${e.message}`,
      Math.max(1, Math.ceil(e.platformDownMs / 1000)),
    );
  if (e.status === 400 || e.status === 422)
    return new TallyError("platform_rejected", e.message, e.details?.length ? e.details : undefined);
  if (e.status === 429 || e.code === "RATE_LIMITED") {
    return new TooManyRequests(
      `The platform is rate limiting Tally: ${e.message}`,
      Math.max(1, Math.ceil((e.retryAfterMs ?? 1000) / 1000)),
    );
  }
  if (e.status === 402) return new TallyError("platform_payment_required", e.message);
  if (e.status === 409) return new TallyError("platform_conflict", e.message);
  if (e.status === 404) return new TallyError("platform_not_found", e.message);
  if (e.status === 401 || e.status === 403)
    return new UpstreamFailure(
      `The platform rejected Tally's API key: ${e.message}`,
      undefined,
      "platform_auth_failed",
    );
  if (e.code === "TIMEOUT") return new UpstreamFailure(e.message, undefined, "platform_timeout");
  return new UpstreamFailure(e.message, e.correlationId ? { correlationId: e.correlationId } : undefined);
}
