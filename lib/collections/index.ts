import "server-only";

// The collections capability's public surface (issue 25): a named, saved URL list with run settings,
// a schedule, and what changed since the previous run. Other folders import it from here.

export * from "./contracts";
export { readCollectionRequest, type CollectionInput } from "./request";
export { createCollection, updateCollection, setPaused } from "./save";
export { getCollection, listCollections } from "./read";
export { runCollectionNow, runDueCollections, type TickResult } from "./start-run";
export { startCollectionSchedule, cronCollections } from "./scheduler";
export { classifyRun, URL_CHANGED } from "./classify";
export { listChanges, diffUrl, type UrlDiff } from "./changes";
export { urlHistory } from "./url-history";
export {
  boundedLineDiff,
  MAX_DIFF_CHARS,
  MAX_DIFF_EDITS,
  MAX_DIFF_LINES,
  type DiffBlock,
  type DiffCut,
  type DiffLine,
  type ViewLine,
  type WordPart,
} from "../judging";
export { describeSchedule, nextTick, scheduleProblem, timezoneProblem } from "./schedule";
export * from "./client";
