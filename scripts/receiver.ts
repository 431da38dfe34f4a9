// npm run receiver — the webhook receiver alone on bare node:http (TALLY_RECEIVER_PORT), same code
// and same database as the app; point TALLY_PUBLIC_URL's /webhooks/ at it to take deliveries faster.
import { configOrExit } from "../lib/config";
import { createReceiverServer } from "../lib/webhooks/node-server";
import { closeReceiverStore } from "../lib/webhooks/store";

const config = configOrExit();
const port = Number(process.argv[2] ?? config.TALLY_RECEIVER_PORT);
const server = createReceiverServer();
server.listen(port, "0.0.0.0", () => console.log(`Tally receiver on http://0.0.0.0:${port}/webhooks/geonode`));

function stop() {
  // Finish the requests in flight (their transactions commit before they answer), then close.
  server.close(() => void closeReceiverStore().finally(() => process.exit(0)));
  setTimeout(() => process.exit(0), 10_000).unref();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
