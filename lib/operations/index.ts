import "server-only";
// lib/operations' surface: what other folders import from it (its files import each other directly).
export { audited, type AuditEntry } from "../audit";
export { keepAlive, launchRun, runInBackground, RunFailed, waitForRun, type Launched, type RunContext } from "./launch";
export {
  abandonStaleRuns,
  finishRun,
  heartbeat,
  HEARTBEAT_MS,
  startRun,
  STALE_AFTER_MS,
  updateProgress,
  type AbandonedRun,
  type Json,
  type RunKind,
  type RunState,
  type StartOptions,
  type Started,
} from "./runs";
export { getRun, getRunOr404, toView, type RunView } from "./view";
export * from "./client";
export { listRuns, operationsPage } from "./history";
export { lastReconciliation } from "./last-run";
