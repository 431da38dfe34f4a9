import "server-only";
import http from "node:http";
import { isMetricsPath, sendJson, serveMetrics } from "../http";
import { log, requestIdFrom, withRequestId } from "../log";
import { checkHealth } from "../metrics";

// `npm run worker` with TALLY_METRICS_PORT: a tiny node:http server so Prometheus can scrape this
// process's own counters (job outcomes, platform calls, safety-net runs, process_*), which no server
// sees. It answers GET /api/metrics (the app's answer and bearer) and GET /api/health, nothing else.

const HEALTH_PATH = /^\/api\/health\/?(?:\?.*)?$/;

async function respond(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (isMetricsPath(req.url)) return serveMetrics(req, res);
  req.resume();
  if (!HEALTH_PATH.test(req.url ?? ""))
    return sendJson(res, 404, {
      error: "not_found",
      message: "a worker serves only GET /api/metrics and GET /api/health",
    });
  if (req.method !== "GET" && req.method !== "HEAD")
    return sendJson(res, 405, { error: "method_not_allowed" }, { allow: "GET" });
  const health = await checkHealth();
  sendJson(res, health.status === "ok" ? 200 : 503, { ...health, role: "worker" }, { "cache-control": "no-store" });
}

export function createWorkerMetricsServer(): http.Server {
  // Short limits: only a scraper and a health probe talk to it.
  return http.createServer({ requestTimeout: 10_000, headersTimeout: 10_000 }, (req, res) => {
    const header = req.headers["x-request-id"];
    const id = requestIdFrom(Array.isArray(header) ? header[0] : header);
    res.setHeader("x-request-id", id);
    void withRequestId(id, () => respond(req, res)).catch((err: unknown) => {
      log.error("worker metrics request failed", { error: String(err) });
      if (!res.headersSent) sendJson(res, 500, { error: "internal_error" });
      else res.end();
    });
  });
}

export class MetricsPortError extends Error {}

/** Listens on 0.0.0.0:port; a port that cannot be had rejects with a message fit for an operator. */
export function listenWorkerMetrics(port: number): Promise<http.Server> {
  const server = createWorkerMetricsServer();
  return new Promise((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      const why =
        err.code === "EADDRINUSE"
          ? "the port is already in use (another worker or program listens on it): give each worker on this machine its own port"
          : err.code === "EACCES"
            ? "permission denied (ports below 1024 need privileges): choose a port from 1024 up"
            : `${err.code ?? "error"}: ${err.message}`;
      reject(
        new MetricsPortError(
          `TALLY_METRICS_PORT=${port}: cannot listen on 0.0.0.0:${port}: ${why}. Or unset TALLY_METRICS_PORT to run without a metrics listener.`,
        ),
      );
    });
    server.listen(port, "0.0.0.0", () => resolve(server));
  });
}

/** Stops accepting, closes idle keep-alive connections (a scraper's), and resolves when closed. */
export function closeWorkerMetrics(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
