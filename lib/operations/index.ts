import "server-only";

export { audited, type AuditEntry } from "../audit/audited";
export { launchRun, runInBackground, RunFailed, waitForRun, type Launched, type RunContext } from "./launch";
export {
  finishRun,
  heartbeat,
  HEARTBEAT_MS,
  startRun,
  STALE_AFTER_MS,
  updateProgress,
  type Json,
  type RunKind,
  type RunState,
  type StartOptions,
  type Started,
} from "./runs";
export { getRun, toView, type RunView } from "./view";
