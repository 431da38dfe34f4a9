import "server-only";
import { z } from "zod";
import {
  PlatformConflict,
  PlatformNotFound,
  PaymentRequired,
  RateLimited,
  PlatformError,
  Timeout,
  PlatformUnauthorized,
  Upstream,
  Validation,
  type ValidationDetail,
} from "./errors";

// Error bodies come in two documented shapes: the flat envelope and FastAPI's 422 `detail` list.
const flatEnvelopeSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  correlation_id: z.string().nullish(),
  retryable: z.boolean().nullish(),
});

const detailListSchema = z.looseObject({
  detail: z.array(
    z.looseObject({
      loc: z.array(z.union([z.string(), z.number()])).default([]),
      msg: z.string().default(""),
      type: z.string().default("value_error"),
    }),
  ),
});
const detailTextSchema = z.looseObject({ detail: z.string() });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Turns any non-2xx response into a typed error. `retryAfterMs` is the wait the caller computed
 * (from Retry-After or its own backoff); it is only used for 429.
 */
export function errorFromResponse(
  status: number,
  text: string,
  header: (name: string) => string | null,
  context: { endpoint: string; retryAfterMs: number },
): PlatformError {
  const body = parseJson(text);
  const flat = flatEnvelopeSchema.safeParse(body);
  const list = detailListSchema.safeParse(body);
  const detailText = detailTextSchema.safeParse(body);
  const details: ValidationDetail[] = list.success
    ? list.data.detail.map((d) => ({ loc: d.loc, msg: d.msg, type: d.type }))
    : [];

  const correlationId =
    (flat.success ? flat.data.correlation_id : null) ?? header("x-request-id") ?? header("x-correlation-id");
  const summary = details.map((d) => `${d.loc.join(".")}: ${d.msg}`).join("; ");
  const message = `${context.endpoint} → ${status}: ${
    flat.success ? flat.data.message : summary || (detailText.success ? detailText.data.detail : "no error body")
  }`;
  const code = flat.success ? flat.data.code : defaultCode(status);
  const base = { status, code, message, correlationId };
  const retryable = flat.success && typeof flat.data.retryable === "boolean" ? flat.data.retryable : null;

  if (status === 429) return new RateLimited({ ...base, retryAfterMs: context.retryAfterMs });
  if (status === 401 || status === 403) return new PlatformUnauthorized({ ...base, retryable: false });
  if (status === 402) return new PaymentRequired({ ...base, retryable: false });
  if (status === 404) return new PlatformNotFound({ ...base, retryable: false });
  if (status === 409) return new PlatformConflict({ ...base, retryable: false });
  if (status === 400 || status === 422) return new Validation({ ...base, retryable: retryable ?? false, details });
  if (status === 408) return new Timeout(message, status);
  if (status >= 500) return new Upstream({ ...base, retryable: retryable ?? true });
  return new PlatformError({ ...base, retryable: retryable ?? false });
}

function defaultCode(status: number): string {
  const codes: Record<number, string> = {
    400: "BAD_REQUEST",
    401: "UNAUTHORIZED",
    402: "INSUFFICIENT_BALANCE",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    408: "TIMEOUT",
    409: "CONFLICT",
    422: "VALIDATION_ERROR",
    429: "RATE_LIMITED",
  };
  return codes[status] ?? (status >= 500 ? "UPSTREAM_ERROR" : `HTTP_${status}`);
}
