// Tally's HTTP server (`npm start`). Deliveries to /webhooks/geonode[/{key}] are answered on bare
// node:http by lib/webhooks/node-server.ts before Next sees them: Next's request path alone costs more
// than the whole receiver. Every other request goes to Next, which also runs instrumentation.ts
// (worker, schedules, demo mode). Both share this process's event loop, so heavy dashboard rendering
// does slow deliveries down (`npm run bench:receiver` measures it); `npm run receiver` serves them
// from a process of their own where that matters.
//
// scripts/build-server.mjs bundles this file into <distDir>/tally-server.mjs after `next build`.
import http from "node:http";
import type { Socket } from "node:net";
import { configOrExit } from "./lib/config";
import { CLIENT_ADDRESS_HEADER, clientAddressSetByServer, gateRequest, resolveClientAddress } from "./lib/http";
import { log } from "./lib/log";
import { closeReceiverStore, createReceiverHandler, isReceiverPath, publicServerOptions } from "./lib/webhooks";
import { enableBackgroundCheckpoints, manageShutdown, runShutdownHooks, startDraining } from "./lib/runtime";
import { contextFromHeaders, SpanKind, startSpan, startTracing, stopTracing, withContext } from "./lib/tracing";

// As `next start` does: React and Next load their production builds only under this value.
Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV ?? "production" });
const config = configOrExit();
// SQLite's checkpoints run on a thread of their own, not in the commit that crosses 1,000 pages on the event loop.
enableBackgroundCheckpoints();
// Past TALLY_SHUTDOWN_GRACE_MS after SIGTERM whatever is still open is cut and the process exits 0 (the
// worker has handed its items back by then; one it could not comes back when its lease expires).
const graceMs = config.TALLY_SHUTDOWN_GRACE_MS;

// Next answers its own errors; this only catches what escapes it, so one request cannot end the process.
function failed(res: http.ServerResponse, err: unknown) {
  log.error("request failed", { error: String(err) });
  if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: "internal_error" }));
}

/**
 * With tracing on, a server span per request for the app, continuing the caller's `traceparent`: what the
 * request queues (a submit, a run, a replay) carries its context. The path only, never the query.
 */
function traced(req: http.IncomingMessage, res: http.ServerResponse, handle: () => void): void {
  // Named by the method alone, as OpenTelemetry's HTTP conventions say when the route is not known here.
  const s = startSpan(req.method ?? "GET", {
    kind: SpanKind.SERVER,
    parent: contextFromHeaders((name) => req.headers[name]),
    attributes: { "http.request.method": req.method ?? "", "url.path": (req.url ?? "/").split("?")[0] },
  });
  if (!s) return handle();
  res.once("close", () => {
    s.span.setAttribute("http.response.status_code", res.statusCode);
    s.span.end();
  });
  withContext(s.context, handle);
}

async function main() {
  // Before Next loads, so its own spans and every span of this process share the one provider.
  await startTracing(config, "server");
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: process.cwd(), hostname: config.TALLY_HOST ?? "localhost", port: config.PORT });
  const handleApp = app.getRequestHandler();
  const handleDelivery = createReceiverHandler();

  let stopping = false;
  const inFlight = new Set<http.ServerResponse>();
  // Resolved when no request is in flight once stopping (checked as each one ends).
  let noneInFlight = () => {};
  const allAnswered = new Promise<void>((resolve) => (noneInFlight = resolve));
  // Listening comes first, so a taken port fails before anything starts; requests for the app that
  // arrive while Next prepares wait for it. The receiver needs nothing from Next and answers at once.
  let markPrepared = () => {};
  const prepared = new Promise<void>((resolve) => (markPrepared = resolve));
  const server = http.createServer(publicServerOptions(), (req, res) => {
    inFlight.add(res);
    res.once("close", () => {
      inFlight.delete(res);
      if (stopping && inFlight.size === 0) noneInFlight();
    });
    if (stopping) res.setHeader("connection", "close");
    if (isReceiverPath(req.url)) return void handleDelivery(req, res);
    // Bodies Tally will not read (an oversized sign-in, an anonymous upload) are answered before Next buffers them.
    const refused = gateRequest(req);
    if (refused) {
      res.writeHead(refused.status, { "content-type": "application/json", connection: "close" });
      // The unread body is not drained: the connection ends with the answer.
      res.end(JSON.stringify(refused.body), () => req.socket.end());
      return;
    }
    // The login throttle's notion of the client: the connection, or what trusted proxies say it was.
    const forwardedFor = req.headers["x-forwarded-for"];
    req.headers[CLIENT_ADDRESS_HEADER] = resolveClientAddress(
      Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor,
      req.socket.remoteAddress,
      config.TALLY_TRUSTED_PROXY_HOPS,
    );
    traced(req, res, () => void prepared.then(() => handleApp(req, res)).catch((err: unknown) => failed(res, err)));
  });
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  // Features register what must finish before exit (the worker's items in flight) with this process.
  manageShutdown();
  clientAddressSetByServer();
  // The stop an orchestrator expects (docs/operations/deployment.md#shutdown): GET /api/ready answers
  // 503 `draining` at once; the port stays open while work is in flight, so the balancer sees that and
  // what still arrives is answered (with Connection: close); the worker claims nothing more, finishes
  // its items or hands them back; once it is done and no request is in flight the port closes and the
  // process exits 0, within TALLY_SHUTDOWN_GRACE_MS.
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    startDraining();
    process.stdout.write(`Tally stopping (${signal}): finishing the requests and work in flight\n`);
    for (const res of inFlight) if (!res.headersSent) res.setHeader("connection", "close");
    server.closeIdleConnections();
    if (inFlight.size === 0) noneInFlight();
    void Promise.all([runShutdownHooks(graceMs), allAnswered])
      .then(() => new Promise<void>((resolve) => server.close(() => resolve())))
      .then(() => closeReceiverStore())
      // The spans of the last moments go out before the process exits.
      .then(() => stopTracing())
      .finally(() => process.exit(0));
    setTimeout(() => {
      log.warn("stop grace ran out: open connections cut", { graceMs, inFlight: inFlight.size });
      for (const socket of sockets) socket.destroy();
      process.exit(0);
    }, graceMs).unref();
  };
  // Before prepare(), so a signal during start-up stops the process the same way.
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.PORT, config.TALLY_HOST, () => resolve());
  });
  // Next runs instrumentation.ts here: migrations checked, worker, schedules, demo mode, the banner.
  await app.prepare();
  markPrepared();
}

main().catch((err: unknown) => {
  const code = (err as { code?: string }).code;
  if (code === "EADDRINUSE") {
    process.stderr.write(`Tally cannot start: port ${config.PORT} is already in use (set PORT to another one)\n`);
  } else {
    process.stderr.write(`Tally cannot start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
