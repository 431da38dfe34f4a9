import "server-only";
import http from "node:http";
import { getConfig } from "../config";
import { log, requestIdFrom, withRequestId } from "../log";
import { isMetricsPath, sendJson as send, serveMetrics } from "../http";
import { publicParent, SpanKind, startSpan, type Span } from "../tracing";
import type { BodyRead } from "./read-body";
import { countUnrecorded, receive, recordRejected } from "./receive";

// The receiver on bare node:http: the same decision (receive.ts) and the same committed writes as
// the Next route, without the framework's request path. Tally's server (server.ts) answers
// /webhooks/geonode[/{key}] with it before Next sees the request; `npm run receiver` serves it alone
// on its own port.

const PATH = /^\/webhooks\/geonode(?:\/([^/?#]+))?\/?(?:\?.*)?$/;

/** True for the receiver's two paths (any method); everything else belongs to the app. */
export function isReceiverPath(url: string | undefined): boolean {
  return PATH.test(url ?? "");
}

function readLimited(req: http.IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve({ ok: false, size: declared });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
    });
    req.on("end", () => resolve(size > limit ? { ok: false, size } : { ok: true, body: Buffer.concat(chunks) }));
    req.on("error", reject);
  });
}

// A malformed escape cannot name a subscription: kept as is, it answers 404 unknown_subscription.
function decodeKey(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/** Answers one request to a receiver path: every answer of receive.ts, 405 for other methods. */
export function createReceiverHandler(): Handler {
  const limit = getConfig().TALLY_WEBHOOK_MAX_BODY_BYTES;
  const trustTraceparent = getConfig().TALLY_TRUST_TRACEPARENT === "on";
  return (req, res) => {
    // The caller's X-Request-Id (or a new one) is echoed back and carried by every log line of the request.
    const header = req.headers["x-request-id"];
    const id = requestIdFrom(Array.isArray(header) ? header[0] : header);
    res.setHeader("x-request-id", id);
    // With tracing on, a span per delivery: the receipt, the root of the job's trace (a caller's
    // traceparent only linked, unless TALLY_TRUST_TRACEPARENT). Off: nothing read, nothing made.
    const traced = startSpan("webhook receive", {
      kind: SpanKind.SERVER,
      ...publicParent((name) => req.headers[name], trustTraceparent),
      attributes: { "http.request.method": req.method ?? "" },
    });
    if (!traced) return withRequestId(id, () => respond(req, res));
    // The span is handed to the decision rather than made the active context (one AsyncLocalStorage
    // switch less a delivery); respond() settles once the answer is written, and the span ends then.
    const { span } = traced;
    return withRequestId(id, () => respond(req, res, span)).finally(() => {
      span.setAttribute("http.response.status_code", res.statusCode);
      span.end();
    });
  };
  async function respond(req: http.IncomingMessage, res: http.ServerResponse, span?: Span): Promise<void> {
    const startedAt = Date.now();
    const match = PATH.exec(req.url ?? "");
    if (!match) {
      req.resume();
      return send(res, 404, {
        error: "not_found",
        message: "only /webhooks/geonode[/{subscriptionKey}] and /api/metrics are served here",
      });
    }
    const key = match[1] ? decodeKey(match[1]) : null;
    try {
      if (req.method !== "POST") {
        req.resume();
        await recordRejected(key, 405, `method ${req.method} not allowed`, startedAt);
        return send(res, 405, { error: "method_not_allowed" }, { allow: "POST" });
      }
      const read = await readLimited(req, limit).catch(() => null);
      // The body never arrived whole (the sender hung up, or took longer than the request timeout):
      // nobody left to answer; logged as 499, as proxies do.
      if (!read)
        return recordRejected(key, 499, "the body never arrived whole (sender hung up or timed out)", startedAt);
      const headers = { get: (name: string) => req.headers[name.toLowerCase()]?.toString() ?? null };
      const answer = await receive({ subscriptionKey: key, headers, read, startedAt, span });
      send(res, answer.status, answer.body);
    } catch (err) {
      countUnrecorded(startedAt);
      log.error("webhook delivery not recorded", {
        error: String(err),
        ...(span ? { trace_id: span.spanContext().traceId } : {}),
      });
      send(res, 503, { error: "not_recorded", reason: "storage unavailable; retry" });
    }
  }
}

/**
 * Node's limits for a public server: a request must arrive whole within TALLY_REQUEST_TIMEOUT_SECONDS
 * (else 408 and the connection closes), so slow or endless senders cannot pile up connections. Node
 * checks on an interval, so the interval is kept well under the limit.
 *
 * An idle keep-alive connection is kept 65 s, not Node's 5 s: a client (or a load balancer: AWS's keeps
 * 60 s) that reuses a connection the server is closing at that moment sees it reset before any answer.
 * With 5 s a client whose own limit is 4 s raced the close whenever its timers ran late (a loaded CI
 * machine: "other side closed" on the first request after a pause). Clients are told so in Keep-Alive.
 */
export function publicServerOptions(): http.ServerOptions {
  const ms = getConfig().TALLY_REQUEST_TIMEOUT_SECONDS * 1000;
  return {
    requestTimeout: ms,
    headersTimeout: ms,
    keepAliveTimeout: 65_000,
    connectionsCheckingInterval: Math.min(Math.max(250, ms / 4), 5_000),
  };
}

/**
 * The receiver alone on its own server (`npm run receiver`), which also answers GET /api/metrics as
 * the app does (its tally_deliveries_total exists in this process only).
 */
export function createReceiverServer(): http.Server {
  const handle = createReceiverHandler();
  return http.createServer(publicServerOptions(), (req, res) => {
    if (!isMetricsPath(req.url)) return void handle(req, res);
    const header = req.headers["x-request-id"];
    const id = requestIdFrom(Array.isArray(header) ? header[0] : header);
    res.setHeader("x-request-id", id);
    void withRequestId(id, () => serveMetrics(req, res)).catch((err: unknown) => {
      log.error("metrics request failed", { error: String(err) });
      if (!res.headersSent) send(res, 500, { error: "internal_error" });
      else res.end();
    });
  });
}
