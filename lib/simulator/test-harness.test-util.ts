// Test-only helpers: a simulator on a free port, a client bound to it, and a tiny webhook receiver.
import { createServer, type IncomingHttpHeaders } from "node:http";
import { createPlatformClient } from "@/lib/platform/http-client";
import type { ClientOptions } from "@/lib/platform/request";
import type { SimConfigPatch, SimMode } from "./config";
import { createSimulator } from "./server";

export const API_KEY = "test-key";

// Fast defaults so a whole file runs in seconds.
export const fastConfig: SimConfigPatch = {
  jobDurationMs: [20, 60],
  deliveryRetryScheduleMs: [0, 20, 40],
  deliveryTimeoutMs: 1000,
  earlyWebhookLagMs: 200,
};

export async function startSim(opts: { mode?: SimMode; seed?: number; config?: SimConfigPatch; apiKey?: string } = {}) {
  const sim = createSimulator({
    mode: opts.mode ?? "test",
    seed: opts.seed ?? 42,
    apiKey: opts.apiKey ?? API_KEY,
    config: { ...fastConfig, ...opts.config },
  });
  const running = await sim.listen(0);
  const client = (extra: Partial<ClientOptions> = {}) =>
    createPlatformClient({
      baseUrl: running.url,
      apiKey: API_KEY,
      requestsPerSecond: 1000,
      burst: 1000,
      retryBaseMs: 5,
      ...extra,
    });
  const control = async (path: string, body?: unknown) => {
    const res = await fetch(running.url + path, {
      method: body === undefined && path !== "/_sim/reset" ? "GET" : "POST",
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: unknown = await res.json();
    return { status: res.status, body: json };
  };
  return { sim, url: running.url, close: running.close, client, control };
}

export type Received = { headers: IncomingHttpHeaders; body: Buffer; at: number };

/** A webhook receiver whose answer is scripted per request (status, optional delay in ms). */
export async function startReceiver(
  answer: (req: Received, index: number) => number | { status: number; delayMs: number } = () => 200,
) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry = { headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
      received.push(entry);
      const out = answer(entry, received.length - 1);
      const { status, delayMs } = typeof out === "number" ? { status: out, delayMs: 0 } : out;
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(status).end("ok");
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = address !== null && typeof address === "object" ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls a condition every 10 ms; throws with the label after `timeoutMs`. */
export async function waitFor(label: string, cond: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const sleepMs = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Headers-like view of Node's incoming headers, for verifyDelivery. */
export const headerGetter = (h: IncomingHttpHeaders) => ({
  get: (name: string) => {
    const v = h[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  },
});
