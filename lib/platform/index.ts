import "server-only";
// lib/platform's surface: what other folders import from it (its files import each other directly).
export {
  createPlatformClient,
  type JobKind,
  type NormalizedJob,
  type ResultPageOptions,
  type PlatformClient,
} from "./http-client";
export type { CallInfo, CallObserver, CallOptions, ClientOptions } from "./request";
export * from "./errors";
export { pollJob, type PollOptions, type PollableClient } from "./poll";
export { collect, paginate, type Page } from "./paginate";
export {
  parseRetryAfter,
  fullJitter,
  spreadJitter,
  RateLimiter,
  realSleep,
  type Limiter,
  type Sleep,
} from "./rate-limit";
export * from "./contract";
export type { DeliveryFilters } from "./webhook-api";
export * from "./client";
export { getBudgetView } from "./budget-view";
export { asPlatformError, isRejectedInput } from "./error-fields";
export { DEFAULT_RESULT_PAGE_SIZE, fetchState, type PlatformState, stateUrl } from "./job-state";
export { type AnswerClass, asBacklog, withPurpose } from "./purpose";
export { flushApiCalls, getPlatformClient } from "./shared-client";
export { budgetCallsPerSecond } from "./shared-budget";
export { type Outage, readOutages } from "./shared-breaker-store";
export { fromPlatformError } from "./to-tally-error";
