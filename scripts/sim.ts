// npm run sim -- --port 4010 [--host 127.0.0.1] [--api-key K] [--seed N] [--mode test|demo|strict] [--config '{"failureRate":0.2}']
import { parseArgs } from "node:util";
import { createSimulator, type SimMode } from "@/lib/simulator";

const MODES: readonly SimMode[] = ["test", "demo", "strict"];

function fail(message: string): never {
  console.error(`sim: ${message}`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "4010" },
    host: { type: "string", default: "127.0.0.1" },
    "api-key": { type: "string" },
    seed: { type: "string" },
    mode: { type: "string", default: "test" },
    config: { type: "string" },
    quiet: { type: "boolean", default: false },
  },
  strict: true,
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0..65535, got ${values.port}`);
const mode =
  MODES.find((m) => m === values.mode) ?? fail(`--mode must be one of ${MODES.join("|")}, got ${values.mode}`);
const seed = values.seed === undefined ? undefined : Number(values.seed);
if (seed !== undefined && !Number.isInteger(seed)) fail(`--seed must be an integer, got ${values.seed}`);
let config: unknown;
try {
  config = values.config === undefined ? undefined : JSON.parse(values.config);
} catch {
  fail("--config must be JSON");
}
if (values["api-key"] === "") fail("--api-key must not be empty");

const log = values.quiet ? undefined : (msg: string) => console.log(`[sim] ${msg}`);

async function main(): Promise<void> {
  // Validated like POST /_sim/config: a bad --config fails here with the reason.
  const sim = createSimulator({
    mode,
    seed,
    apiKey: values["api-key"],
    log,
    config: config === undefined ? undefined : Object(config),
  });
  const running = await sim.listen(port, values.host);
  console.log(
    `[sim] ${mode} mode on ${running.url}${mode === "strict" ? "" : ` (control API: ${running.url}/_sim/state)`}`,
  );
  const stop = () => {
    void running.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
