import "server-only";
import type http from "node:http";
import { securityHeaders } from "./security-headers";

// Answers on bare node:http (the receiver, a worker's metrics listener) with the headers
// next.config.js puts on every answer of the app.

const SECURITY_HEADERS = Object.fromEntries(securityHeaders.map((h) => [h.key, h.value]));

export function sendBody(res: http.ServerResponse, status: number, body: string, headers: Record<string, string>): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "content-length": String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendBody(res, status, JSON.stringify(body), { "content-type": "application/json", ...headers });
}
