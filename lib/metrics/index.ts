import "server-only";
// lib/metrics's surface: what other folders import from it (its files import each other directly).
export { answerMetrics, metricsUnavailableSchema } from "./answer";
export {
  countBodyMissing,
  countBodyUnavailable,
  countBodyRead,
  countBodySweep,
  countDelivery,
  countJobOutcome,
  countJudgedPage,
  countJudgeTask,
  setJudgePool,
  countPlatformCall,
  countRateLimitedMs,
  countSafetyNetRun,
  observeBodyIo,
} from "./count";
export { checkHealth, healthOkSchema, healthUnavailableSchema } from "./health";
export { queueHealth } from "./queue-health";
