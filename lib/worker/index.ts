import "server-only";
// lib/worker's surface: what other folders import from it (its files import each other directly).
export { cronPoll, cronReconcile, cronRetention, cronWork } from "./cron";
export { closeWorkerMetrics, listenWorkerMetrics, MetricsPortError } from "./metrics-server";
export { startRetention } from "./retention";
export { startSchedules } from "./schedules";
export { listenForEnqueuesOnPostgres, startServerWorker, workerFor } from "./start";
