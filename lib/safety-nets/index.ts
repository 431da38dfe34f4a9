import "server-only";
// lib/safety-nets's surface: what other folders import from it (its files import each other directly).
export { reconcileAction, replayAction } from "./actions";
export { pollDueJobs, schedulePollsForSilentJobs } from "./poller";
export { startReconcile } from "./reconcile";
export { startReplay } from "./replay";
