import "server-only";
// lib/runtime's surface: what other folders import from it (its files import each other directly).
export {
  finishWithin,
  isDraining,
  manageShutdown,
  onShutdown,
  runShutdownHooks,
  shutdownIsManaged,
  startDraining,
} from "./shutdown";
export { PROCESS_TAG } from "./process-tag";
export { singleton, slot } from "./singleton";
export { withBusyRetry } from "./sqlite-busy";
export { secureSqliteFile } from "./sqlite-file";
export { manageCheckpoints, stopBackgroundCheckpoints, enableBackgroundCheckpoints } from "./sqlite-checkpoint";
export { cachePreparedStatements, sqliteDate } from "./sqlite-statements";
