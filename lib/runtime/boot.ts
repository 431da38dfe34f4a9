import "server-only";
import { configOrExit, type TallyConfig } from "../config";
import { dbReady } from "../db";
import { ensureDefaultDestination } from "../forwarding/destinations";
import { log, setLogLevel } from "../log";

// Server start-up: validate the configuration (fail with a readable message), open the database,
// then start what this process runs. Kept on globalThis so a second module load does nothing.

const holder = globalThis as unknown as { __tallyBooted?: Promise<void> };

export function boot(): Promise<void> {
  holder.__tallyBooted ??= start();
  return holder.__tallyBooted;
}

async function start(): Promise<void> {
  const config = configOrExit();
  // Features register what they start with the server when their module loads.
  await import("./server-features");
  setLogLevel(config.TALLY_LOG_LEVEL);
  await dbReady();
  await ensureDefaultDestination(config);
  for (const hook of startHooks) await hook(config);
  printBanner(config);
}

type StartHook = (config: TallyConfig) => Promise<void> | void;
const startHooks: StartHook[] = [];

/** Features add what they start with the server (simulator, worker, schedulers) here. */
export function onServerStart(hook: StartHook): void {
  startHooks.push(hook);
}

function printBanner(config: TallyConfig) {
  const lines = [
    "",
    `  Tally is running in ${config.mode} mode`,
    `  Open   http://localhost:${config.PORT}`,
    config.operatorPasswordGenerated
      ? `  Login  password ${config.operatorPassword}  (generated for this run; set TALLY_OPERATOR_PASSWORD to choose one)`
      : "  Login  with TALLY_OPERATOR_PASSWORD",
    "",
  ];
  // Printed once, straight to the terminal: the only place a generated password ever appears.
  process.stdout.write(`${lines.join("\n")}\n`);
  log.info("tally started", { mode: config.mode, port: config.PORT, delivery: config.TALLY_DELIVERY_MODE });
}
