// `npm run worker`: the queue worker alone, for scaling out beside (or instead of) the server's own
// worker. SIGTERM/SIGINT: stop claiming, let items in flight finish for a while, then release them, all
// within TALLY_SHUTDOWN_GRACE_MS (as the server does, docs/operations/deployment.md#shutdown).
import { bodyStoreReady } from "../lib/bodies";
import { configOrExit } from "../lib/config";
import { dbReady, disconnectAll } from "../lib/db";
import { log, setLogLevel } from "../lib/log";
import { enableBackgroundCheckpoints, finishWithin } from "../lib/runtime";
import {
  closeWorkerMetrics,
  listenForEnqueuesOnPostgres,
  listenWorkerMetrics,
  MetricsPortError,
  startSchedules,
  workerFor,
} from "../lib/worker";
import { startAlerts } from "../lib/alerts";
import { startCollectionSchedule } from "../lib/collections";
import { startTracing, stopTracing } from "../lib/tracing";

async function main() {
  const config = configOrExit();
  enableBackgroundCheckpoints(); // SQLite: checkpoints on a thread, not in a commit on the event loop
  setLogLevel(config.TALLY_LOG_LEVEL);
  await startTracing(config, "worker");
  if (config.TALLY_SCHEDULER === "external") {
    process.stderr.write(
      "TALLY_SCHEDULER=external: no process runs loops; the scheduler drains the queue through POST /api/cron/work. Unset it (or set on/off) to run `npm run worker`.\n",
    );
    process.exit(1);
  }
  if (!config.apiBaseUrl) {
    process.stderr.write(
      "No platform to talk to: set GEONODE_SCRAPER_API_KEY (live) or SCRAPER_API_BASE_URL (e.g. the simulator's URL).\n",
    );
    process.exit(1);
  }
  // Listening comes first, so a taken port fails before anything starts.
  const metricsServer =
    config.TALLY_METRICS_PORT === undefined
      ? null
      : await listenWorkerMetrics(config.TALLY_METRICS_PORT).catch(exitOnPortError);
  if (metricsServer) {
    log.info(
      `worker metrics on http://0.0.0.0:${config.TALLY_METRICS_PORT}/api/metrics (bearer TALLY_METRICS_TOKEN or the API token; health at /api/health)`,
      {
        port: config.TALLY_METRICS_PORT,
      },
    );
    if (!config.TALLY_METRICS_TOKEN && !config.TALLY_API_TOKEN)
      log.warn(
        "TALLY_METRICS_PORT is set but neither TALLY_METRICS_TOKEN nor TALLY_API_TOKEN is: every scrape will be refused (401)",
      );
  } else {
    log.info(
      "worker metrics not exposed: this process's counters (job outcomes, platform calls, safety-net runs, process_*) are seen by no scrape; set TALLY_METRICS_PORT to serve GET /api/metrics from this worker",
    );
  }
  await dbReady();
  await bodyStoreReady().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
  const worker = workerFor(config);
  listenForEnqueuesOnPostgres(config);
  // The safety nets' timers (polling loop, scheduled reconciliation, secret cleanup) run here too with
  // TALLY_SCHEDULER=on; each is single-flight beside the servers' own (lib/scheduling/lease.ts).
  const schedules = config.TALLY_SCHEDULER === "on" ? startSchedules(config) : null;
  const alerts = config.TALLY_SCHEDULER === "on" && config.TALLY_ALERTS === "on" ? startAlerts(config) : null;
  const collections = config.TALLY_SCHEDULER === "on" ? startCollectionSchedule(config) : null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("worker stopping", { signal, inFlight: worker.inFlight() });
    schedules?.stop();
    alerts?.stop();
    collections?.stop();
    const graceMs = config.TALLY_SHUTDOWN_GRACE_MS;
    // Whatever has not closed by the end of the grace is cut: a lease not released comes back when it expires.
    setTimeout(() => {
      log.warn("stop grace ran out", { graceMs });
      process.exit(0);
    }, graceMs).unref();
    await Promise.all([
      worker.stop(finishWithin(graceMs)),
      metricsServer ? closeWorkerMetrics(metricsServer) : undefined,
    ]);
    await disconnectAll();
    await stopTracing();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  worker.start();
}

function exitOnPortError(err: unknown): never {
  if (err instanceof MetricsPortError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  throw err;
}

void main();
