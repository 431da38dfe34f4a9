import "server-only";
import { z } from "zod";

// Errors from the platform client, recognised by their shape rather than `instanceof`. Next bundles
// instrumentation (the worker) and the route handlers separately, so lib/platform exists twice in one
// process while the client lives once per process (lib/runtime/singleton.ts): an error thrown by the client built in one copy
// fails `instanceof` against the other copy's classes (and class names are minified). Fields survive.

const platformErrorSchema = z.object({
  status: z.number().int().nullable(),
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  correlationId: z.string().nullable(),
  details: z
    .array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() }))
    .optional(),
  retryAfterMs: z.number().optional(),
  /** Set while the platform counts as down (the client's circuit breaker): how long until it tries again. */
  platformDownMs: z.number().optional(),
});
export type PlatformErrorFields = z.infer<typeof platformErrorSchema>;

/** The platform error's fields, or null when `err` is not a platform client error. */
export function asPlatformError(err: unknown): PlatformErrorFields | null {
  if (!(err instanceof Error)) return null;
  const parsed = platformErrorSchema.safeParse(err);
  return parsed.success ? parsed.data : null;
}

/** The platform refused the request body (400/422): retrying the same body cannot help. */
export const isRejectedInput = (e: PlatformErrorFields) => e.status === 400 || e.status === 422;
