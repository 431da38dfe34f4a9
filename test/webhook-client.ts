// Helpers to send signed deliveries to a running Tally over real HTTP.
import { signDelivery, defaultHmacScheme, type SignatureScheme } from "@/lib/signing/signature";

export function envelope(jobId: string, event = "extract_completed", extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    event,
    webhook_id: "wh-1",
    delivery_id: `d-${jobId}`,
    timestamp: new Date().toISOString(),
    data: { job_id: jobId, status: "completed" },
    ...extra,
  });
}

export async function deliver(
  url: string,
  body: string | Uint8Array,
  opts: { secret?: string; scheme?: SignatureScheme; headers?: Record<string, string>; method?: string } = {},
) {
  const scheme = opts.scheme ?? defaultHmacScheme;
  const sig = opts.secret
    ? signDelivery(scheme, opts.secret, body, {
        id: `msg_${Math.random().toString(36).slice(2)}`,
        timestamp: Date.now() / 1000,
      })
    : {};
  const res = await fetch(url, {
    method: opts.method ?? "POST",
    headers: { "content-type": "application/json", ...sig, ...opts.headers },
    body: opts.method === "GET" ? undefined : typeof body === "string" ? body : new Uint8Array(body),
  });
  const text = await res.text();
  let json: Record<string, string> = {};
  try {
    json = JSON.parse(text);
  } catch {
    // leave empty; the test asserts on it
  }
  return { status: res.status, json };
}
