import "server-only";

// The runs capability's public surface (issue 24): a list of URLs as one unit. Other folders import
// it from here.

export * from "./contracts";
export { parseText, parseValues, urlProblem, SHOWN_INVALID, type ParsedList, type InvalidLine } from "./parse-list";
export { createRun, insertRun, type RunOptions, type CollectionRunOptions } from "./create";
export { fingerprint, normalizeContent, patternProblem, compileRules, MAX_IGNORE_PATTERNS } from "./fingerprint";
export { CLASSIFY_RUN, classifyRunPayload, classifyRunItem, type ClassifyRunPayload } from "./classify-item";
export { readRunRequest, readListBody, queryFlag, checksOrRefuse, MAX_LIST_BYTES } from "./request";
export { createRunSubmitHandler, type JobsPort, type ChunkRequest } from "./submit";
export { RUN_SUBMIT, runSubmitPayload, runSubmitItem, type RunSubmitPayload } from "./submit-item";
export { getRun, listRuns, listRunUrls, rungsTriedOf, toRunView } from "./read";
export { readEscalation } from "./escalation";
export { cancelRun } from "./cancel";
export { retryFailed } from "./retry";
export { monthUsage } from "./caps";
export { isTransient, TRANSIENT_CODES, PERMANENT_CODES } from "./item-errors";
export { RUN_COMPLETED } from "./event";
export * from "./client";
export { settleChunkJob } from "./settle";
