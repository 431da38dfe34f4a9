// Which item failures are worth another try. A batch item fails with the platform's flat
// `error_code` / `error_message` and, when the target answered, its HTTP status in
// `metadata.http_status`. The target's status is the most specific fact, so it decides first; the
// code decides when there is no status (or a 2xx, which means the platform failed after fetching).
//
// | what                                   | transient (retried)                 | permanent (final at once)              |
// |----------------------------------------|-------------------------------------|----------------------------------------|
// | target HTTP status                     | 408, 425, 429, 500–599              | any other 4xx (400, 401, 403, 404, 410, 451 …) |
// | platform error_code                    | TIMEOUT, RATE_LIMITED, INTERNAL_ERROR, SERVICE_UNAVAILABLE, UPSTREAM_ERROR, NETWORK_ERROR, EXTRACTION_FAILED, PROXY_ERROR, CANCELLED | INVALID_URL, VALIDATION_ERROR, NOT_FOUND, FORBIDDEN, BLOCKED, ROBOTS_DISALLOWED, UNSUPPORTED_CONTENT, INSUFFICIENT_BALANCE |
// | anything else                          | transient (an unknown code gets the bounded retries; the cap keeps it finite) | |

const TRANSIENT_STATUS = (s: number) => s === 408 || s === 425 || s === 429 || (s >= 500 && s <= 599);

export const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  "TIMEOUT",
  "RATE_LIMITED",
  "INTERNAL_ERROR",
  "SERVICE_UNAVAILABLE",
  "UPSTREAM_ERROR",
  "NETWORK_ERROR",
  "EXTRACTION_FAILED",
  "PROXY_ERROR",
  "CANCELLED",
]);

export const PERMANENT_CODES: ReadonlySet<string> = new Set([
  "INVALID_URL",
  "VALIDATION_ERROR",
  "NOT_FOUND",
  "FORBIDDEN",
  "BLOCKED",
  "ROBOTS_DISALLOWED",
  "UNSUPPORTED_CONTENT",
  "INSUFFICIENT_BALANCE",
]);

export type ItemFailure = { errorCode: string | null; httpStatus: number | null };

export function isTransient(f: ItemFailure): boolean {
  if (f.httpStatus !== null && f.httpStatus >= 400) return TRANSIENT_STATUS(f.httpStatus);
  const code = (f.errorCode ?? "").toUpperCase();
  if (PERMANENT_CODES.has(code)) return false;
  return true;
}
