import "server-only";
import type { ForcedFault, SimCore } from "./core";
import { flatError, type Reply } from "./http";

const SERVER_ERRORS: Record<number, { code: string; message: string }> = {
  500: { code: "INTERNAL_ERROR", message: "Internal server error" },
  502: { code: "BAD_GATEWAY", message: "Billing upstream error" },
  503: { code: "SERVICE_UNAVAILABLE", message: "Service temporarily unavailable" },
  504: { code: "GATEWAY_TIMEOUT", message: "Upstream timed out" },
};

export function serverError(status: number, correlationId: string): Reply {
  const known = SERVER_ERRORS[status] ?? { code: "INTERNAL_ERROR", message: "Internal server error" };
  return flatError(status, known.code, known.message, correlationId, true);
}

/** 429 with Retry-After in the configured form; the HTTP-date is rounded up so the wait is never shorter. */
function rateLimited(core: SimCore, correlationId: string, form: ForcedFault["retryAfter"] | undefined): Reply {
  const cfg = core.config();
  const index = core.nextRateLimitIndex();
  const chosen =
    form ?? (cfg.rateLimitForm === "alternate" ? (index % 2 === 0 ? "seconds" : "http-date") : cfg.rateLimitForm);
  const reply = flatError(429, "RATE_LIMITED", "Too many requests: concurrency limit reached", correlationId, true);
  const seconds = cfg.retryAfterSeconds;
  if (chosen === "seconds") reply.headers = { ...reply.headers, "Retry-After": String(seconds) };
  if (chosen === "http-date") {
    const at = Math.ceil((Date.now() + seconds * 1000) / 1000) * 1000;
    reply.headers = { ...reply.headers, "Retry-After": new Date(at).toUTCString() };
  }
  return reply;
}

/**
 * Decides the fault (if any) for one /v1/* call, before the route runs. Queued faults go first and
 * are deterministic; the rates draw from the API stream.
 */
export async function apiFault(core: SimCore, correlationId: string): Promise<Reply | null> {
  const cfg = core.config();
  const rng = core.streams().api;
  const forced = core.forcedFaults.shift();
  if (forced?.kind === "slow" || rng.chance(cfg.slowResponseRate)) await core.scheduler.delay(cfg.slowResponseMs);
  if (forced?.kind === "rate_limit") return rateLimited(core, correlationId, forced.retryAfter);
  if (forced?.kind === "server_error") return serverError(forced.status ?? 503, correlationId);
  if (rng.chance(cfg.rateLimitRate)) return rateLimited(core, correlationId, undefined);
  if (rng.chance(cfg.serverErrorRate))
    return serverError(cfg.serverErrorStatus ?? rng.pick([500, 502, 503]), correlationId);
  return null;
}

/** After a POST took effect: sometimes the answer is lost anyway (a 502), as with a real gateway. */
export function lostResponse(core: SimCore, method: string, reply: Reply, correlationId: string): Reply {
  const ok = reply.status >= 200 && reply.status < 300;
  if (method !== "POST" || !ok) return reply;
  return core.streams().api.chance(core.config().serverErrorAfterWriteRate) ? serverError(502, correlationId) : reply;
}
