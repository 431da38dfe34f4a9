// Tally's HTTP server (`npm start`). Deliveries to /webhooks/geonode[/{key}] are answered on bare
// node:http by lib/webhooks/node-server.ts before Next sees them: Next's request path alone costs more
// than the whole receiver, and the platform's retries should never queue behind a dashboard render.
// Every other request goes to Next, which also runs instrumentation.ts (worker, schedules, demo mode).
//
// scripts/build-server.mjs bundles this file into <distDir>/tally-server.mjs after `next build`.
import http from "node:http";
import type { Socket } from "node:net";
import { configOrExit } from "./lib/config";
import { createReceiverHandler, isReceiverPath } from "./lib/webhooks/node-server";
import { closeReceiverStore } from "./lib/webhooks/store";

// As `next start` does: React and Next load their production builds only under this value.
Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV ?? "production" });
const config = configOrExit();

async function main() {
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: process.cwd(), hostname: config.TALLY_HOST ?? "localhost", port: config.PORT });
  const handleApp = app.getRequestHandler();
  const handleDelivery = createReceiverHandler();

  let stopping = false;
  const inFlight = new Set<http.ServerResponse>();
  // Listening comes first, so a taken port fails before anything starts; requests for the app that
  // arrive while Next prepares wait for it. The receiver needs nothing from Next and answers at once.
  let markPrepared = () => {};
  const prepared = new Promise<void>((resolve) => (markPrepared = resolve));
  const server = http.createServer((req, res) => {
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
    if (stopping) res.setHeader("connection", "close");
    if (isReceiverPath(req.url)) void handleDelivery(req, res);
    else void prepared.then(() => handleApp(req, res));
  });
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Stop accepting, let answers in flight finish (a delivery answers only after it commits) on
    // connections that then close, and go.
    for (const res of inFlight) if (!res.headersSent) res.setHeader("connection", "close");
    server.close(() => {
      closeReceiverStore();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => {
      for (const socket of sockets) socket.destroy();
      process.exit(0);
    }, 5_000).unref();
    process.stdout.write(`Tally stopping (${signal})\n`);
  };
  // Before prepare(): the worker it starts listens for SIGTERM too, and would otherwise swallow one
  // that arrives while Next is still preparing.
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
