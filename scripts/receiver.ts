// npm run receiver — the webhook receiver alone on bare node:http (TALLY_RECEIVER_PORT), same code
// and same database as the app; point TALLY_PUBLIC_URL's /webhooks/ at it to take deliveries faster.
// It answers GET /api/metrics too (same bearer and answer as the app's): its deliveries count here only.
import { configOrExit } from "../lib/config";
import { enableBackgroundCheckpoints } from "../lib/runtime";
import { startTracing, stopTracing } from "../lib/tracing";
import { closeReceiverStore, createReceiverServer } from "../lib/webhooks";

const config = configOrExit();
enableBackgroundCheckpoints(); // SQLite: checkpoints on a thread, not in a commit on the event loop
const port = Number(process.argv[2] ?? config.TALLY_RECEIVER_PORT);
const server = createReceiverServer();
server.once("error", (err: NodeJS.ErrnoException) => {
  process.stderr.write(
    `Tally receiver cannot listen on 0.0.0.0:${port}: ${err.code === "EADDRINUSE" ? "the port is already in use (set TALLY_RECEIVER_PORT to a free one)" : err.message}\n`,
  );
  process.exit(1);
});
// Tracing (when OTEL_EXPORTER_OTLP_ENDPOINT is set) is up before the first delivery.
void startTracing(config, "receiver").then(() =>
  server.listen(port, "0.0.0.0", () =>
    console.log(
      `Tally receiver on http://0.0.0.0:${port}/webhooks/geonode (metrics: GET http://0.0.0.0:${port}/api/metrics)`,
    ),
  ),
);

function stop() {
  // Finish the requests in flight (their transactions commit before they answer), then close.
  server.close(
    () =>
      void closeReceiverStore()
        .then(() => stopTracing())
        .finally(() => process.exit(0)),
  );
  server.closeIdleConnections(); // a scraper's keep-alive connection must not hold the close up
  setTimeout(() => process.exit(0), 10_000).unref();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
