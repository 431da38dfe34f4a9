// Serves the built app for Playwright: a fresh database in a temp folder, migrated, then Tally's
// server as `npm start` runs it.
// Refuses to run against any database outside the temp folder.
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { serverBundle } from "./server-bundle.mjs";

const port = process.argv[2] ?? "3200";
const dir = mkdtempSync(path.join(tmpdir(), "tally-e2e-"));
const databaseUrl = `file:${path.join(dir, "tally.db")}`;
if (!databaseUrl.startsWith(`file:${tmpdir()}`)) {
  console.error(`Refusing to run end-to-end tests against a non-temporary database: ${databaseUrl}`);
  process.exit(1);
}
export const E2E_PASSWORD = "e2e operator password";
// The alert webhook's receiver: records what it is sent; GET on any path lists it (the Alerts spec reads it).
const received = [];
const sink = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    if (req.method === "GET")
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received));
    received.push({ headers: req.headers, body });
    if (received.length > 200) received.shift();
    res.writeHead(200).end("ok");
  });
});
await new Promise((resolve) => sink.listen(0, "127.0.0.1", resolve));
const sinkPort = sink.address().port;
const env = {
  ...process.env,
  NODE_ENV: "production",
  PORT: port,
  DATABASE_URL: databaseUrl,
  // Page bodies beside the database, not in the checkout's ./data/bodies that every server would share.
  TALLY_BODY_STORE: process.env.TALLY_BODY_STORE ?? `file:${path.join(dir, "bodies")}`,
  TALLY_OPERATOR_PASSWORD: process.env.E2E_PASSWORD ?? E2E_PASSWORD,
  TALLY_HOST: "127.0.0.1",
  TALLY_PUBLIC_URL: `http://127.0.0.1:${port}`,
  TALLY_DEMO_TRAFFIC: process.env.TALLY_DEMO_TRAFFIC ?? "on",
  // Pages of 4–40 KB (the demo's default is 20–200 KB): still kept in the body store, with a tenth of
  // the bytes to hash and compress while the specs wait on the pages (a preview of a 200 KB page on a
  // loaded machine timed a spec out once).
  TALLY_SIM_BODY_BYTES: process.env.TALLY_SIM_BODY_BYTES ?? "4000,40000",
  // A failed outbound event waits minutes for its retry, so the Outbound spec's replay is what sends it.
  TALLY_FORWARD_RETRY_INITIAL_MS: "600000",
  // The specs' receivers listen on 127.0.0.1, which destinations added at run time may use only when allowed.
  TALLY_ALLOW_PRIVATE_DESTINATIONS: "127.0.0.1",
  TALLY_ALERT_WEBHOOK_URL: process.env.TALLY_ALERT_WEBHOOK_URL ?? `http://127.0.0.1:${sinkPort}/alerts`,
  TALLY_ALERT_WEBHOOK_SECRET:
    process.env.TALLY_ALERT_WEBHOOK_SECRET ??
    `whsec_${Buffer.from("e2e-alert-signing-key-012345678").toString("base64")}`,
  TALLY_ALERT_EVALUATE_SECONDS: process.env.TALLY_ALERT_EVALUATE_SECONDS ?? "2",
};
const migrate = spawnSync("npx", ["prisma", "migrate", "deploy"], { env, stdio: "inherit" });
if (migrate.status !== 0) process.exit(migrate.status ?? 1);
const server = spawn(process.execPath, [serverBundle], { env, stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.kill(sig));
server.on("exit", (code) => process.exit(code ?? 0));
sink.unref();
