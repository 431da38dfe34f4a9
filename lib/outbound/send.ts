import "server-only";
import { deadline } from "../http";
import { type GuardContext, guardedPost, type PostAnswer, RefusedAddress } from "../net";
import { signDelivery } from "../signing";
import { injectTraceHeaders } from "../tracing";

// One outbound request, signed per Standard Webhooks. Only a 2xx counts; redirects are not followed
// (a 3xx is a failed attempt), and a timeout or a refused connection is a failed attempt too. A
// destination registered at run time is sent through the address guard: the address actually connected
// to must be allowed (lib/net/address-guard.ts), so a DNS answer that changes later is a failed attempt.

export type SendResult = { ok: boolean; statusCode: number | null; error: string | null; latencyMs: number };

const USER_AGENT = "Tally-Webhooks/1";
const SNIPPET_BYTES = 300;

/** The signed headers for a body: webhook-id, webhook-timestamp (seconds), webhook-signature v1. */
export function signedHeaders(
  secret: string,
  eventId: string,
  body: string,
  nowMs = Date.now(),
): Record<string, string> {
  return signDelivery({ kind: "standard", toleranceSeconds: 300 }, secret, body, {
    id: eventId,
    timestamp: Math.floor(nowMs / 1000),
  });
}

/** The start of an error answer's body, for the operator; the rest is never read. */
async function snippet(res: PostAnswer): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= SNIPPET_BYTES) break;
    }
  } finally {
    res.body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString("utf8").replace(/\s+/g, " ").trim();
}

export async function sendEvent(
  url: string,
  secret: string,
  eventId: string,
  body: string,
  opts: { timeoutMs: number; signal: AbortSignal; guard?: GuardContext | null },
): Promise<SendResult> {
  const started = Date.now();
  // Bounds the whole exchange (connect, headers, the error body's snippet) by timeoutMs.
  const limit = deadline(opts.timeoutMs, opts.signal);
  const signal = limit.signal;
  try {
    const res = await guardedPost(url, {
      signal,
      guard: opts.guard ?? null,
      // With tracing on, the W3C traceparent of the delivery's span goes along (lib/tracing).
      headers: injectTraceHeaders({
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        ...signedHeaders(secret, eventId, body),
      }),
      body,
    });
    const ok = res.status >= 200 && res.status < 300;
    const text = ok ? (res.body.destroy(), "") : await snippet(res).catch(() => "");
    return {
      ok,
      statusCode: res.status,
      error: ok ? null : `HTTP ${res.status}${text ? `: ${text}` : ""}`,
      latencyMs: Date.now() - started,
    };
  } catch (err) {
    if (err instanceof RefusedAddress)
      return { ok: false, statusCode: null, error: `refused: ${err.message}`.slice(0, 500), latencyMs: 0 };
    const timedOut = limit.timedOut() && !opts.signal.aborted;
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    const code =
      cause && typeof cause === "object" && "code" in cause && typeof cause.code === "string" ? cause.code : null;
    const message = timedOut
      ? `timed out after ${opts.timeoutMs} ms`
      : (code ?? (cause instanceof Error ? cause.message : String(cause)));
    return { ok: false, statusCode: null, error: message.slice(0, 500), latencyMs: Date.now() - started };
  } finally {
    limit.done();
  }
}
