import "server-only";

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
export * from "./schemas";
export * from "./batch-crawl-schemas";
export * from "./webhook-schemas";
export type { DeliveryFilters } from "./webhook-api";
