import "server-only";
import { startAlerts } from "./alerts";
import { bodyStoreReady, startBodySweep } from "./bodies";
import { startCollectionSchedule } from "./collections";
import { ensureBootstrapAdmin } from "./auth";
import { configOrExit, type TallyConfig } from "./config";
import { dbReady } from "./db";
import { startDemoMode } from "./demo";
import { ensureDefaultDestination } from "./outbound";
import { log, setLogLevel } from "./log";
import { startRetention, startSchedules, startServerWorker } from "./worker";
import { shutdownIsManaged, singleton } from "./runtime";
import { exportOnSignalledExit, startTracing } from "./tracing";

// Server start-up, in one stated order: validate the configuration (fail with a readable message),
// open the database, then start this process's parts. A process-wide singleton, so a second module load
// (Next loads lib/ more than once) does nothing.

export function boot(): Promise<void> {
  return singleton("boot", start);
}

async function start(): Promise<void> {
  const config = configOrExit();
  setLogLevel(config.TALLY_LOG_LEVEL);
  // Already started by server.ts under `npm start` (the same promise); `next start` and `next dev` start it here.
  await startTracing(config, "server");
  // Under plain `next start`/`next dev` Next ends the process on a signal: its last spans go out first.
  if (!shutdownIsManaged()) exportOnSignalledExit();
  await dbReady();
  //    The body store (page bodies, lib/bodies): unusable means stop here with the reason, not a
  //    failure at the first result stored.
  await bodyStoreReady().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
  // 0. No lock-out: on a database without users, the first admin (admin@localhost) from
  //    TALLY_OPERATOR_PASSWORD or demo mode's generated password.
  await ensureBootstrapAdmin(config);
  //    The destination named by TALLY_FORWARD_URL, in step with the environment.
  await ensureDefaultDestination(config);
  // 1. Demo mode first: the worker and the pollers need the platform's address, which the simulator
  //    has only once it listens (its webhook registration goes on in the background).
  await startDemoMode(config);
  // 2. The worker, unless `npm run worker` processes do the work elsewhere, or an external scheduler
  //    drains the queue through POST /api/cron/work (TALLY_SCHEDULER=external: no loops at all).
  if (config.TALLY_WORKER === "on" && config.TALLY_SCHEDULER !== "external") startServerWorker(config);
  // 3. The safety nets' timers (polling, scheduled reconciliation, secret clean-up), then
  // 4. retention (logs kept bounded): only with TALLY_SCHEDULER=on. Each scheduled unit is
  //    single-flight across processes, so several servers with `on` still run it once per interval.
  //    5. The alert rules (evaluated every TALLY_ALERT_EVALUATE_SECONDS, single-flight) and their
  //    notifications, last: they only read what the parts above write.
  if (config.TALLY_SCHEDULER === "on") {
    startSchedules(config);
    startRetention();
    //    The body store's sweep of unreferenced objects (hourly, single-flight).
    startBodySweep();
    //    The collections' schedules (a missed tick runs once, at start).
    startCollectionSchedule(config);
    if (config.TALLY_ALERTS === "on") startAlerts(config);
  }
  printBanner(config);
}

function printBanner(config: TallyConfig) {
  const lines = [
    "",
    `  Tally is running in ${config.mode} mode`,
    `  Open   http://localhost:${config.PORT}`,
    `  Roles  worker ${config.TALLY_SCHEDULER === "external" ? "off (external scheduler)" : config.TALLY_WORKER}, scheduler ${config.TALLY_SCHEDULER}`,
    config.operatorPasswordGenerated
      ? `  Login  admin@localhost, password ${config.operatorPassword}  (generated for this run; set TALLY_OPERATOR_PASSWORD to choose one)`
      : "  Login  admin@localhost with TALLY_OPERATOR_PASSWORD (until its password is reset; `npm run user -- list` shows the accounts)",
    "",
  ];
  // Printed once, straight to the terminal: the only place a generated password ever appears.
  process.stdout.write(`${lines.join("\n")}\n`);
  log.info("tally started", {
    mode: config.mode,
    port: config.PORT,
    delivery: config.TALLY_DELIVERY_MODE,
    worker: config.TALLY_SCHEDULER === "external" ? "off" : config.TALLY_WORKER,
    scheduler: config.TALLY_SCHEDULER,
  });
}
