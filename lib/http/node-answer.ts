import "server-only";
import type http from "node:http";
import { answerMetrics } from "../metrics";
import { securityHeaders } from "./security-headers";

// Answers on bare node:http (the receiver, a worker's metrics listener) with the headers
// next.config.js puts on every answer of the app.

const SECURITY_HEADERS = Object.fromEntries(securityHeaders.map((h) => [h.key, h.value]));

export function sendBody(
  res: http.ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string>,
): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "content-length": String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendBody(res, status, JSON.stringify(body), { "content-type": "application/json", ...headers });
}

const METRICS_PATH = /^\/api\/metrics\/?(?:\?.*)?$/;

export function isMetricsPath(url: string | undefined): boolean {
  return METRICS_PATH.test(url ?? "");
}

/** GET /api/metrics on node:http: the Next route's answer (lib/metrics/answer.ts); HEAD as Next does; other methods 405. */
export async function serveMetrics(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  req.resume();
  if (req.method !== "GET" && req.method !== "HEAD")
    return sendJson(res, 405, { error: "method_not_allowed" }, { allow: "GET" });
  const answer = await answerMetrics(req.headers.authorization ?? null);
  sendBody(res, answer.status, answer.body, answer.headers);
}
