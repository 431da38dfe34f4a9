import "server-only";
// lib/dead-letters's surface: what other folders import from it (its files import each other directly).
export * from "./client";
export {
  type ActionSummary,
  type DiscardBody,
  discardBodySchema,
  discardDeadLetters,
  type RetryBody,
  retryBodySchema,
  retryDeadLetters,
} from "./actions";
export { exportDeadLetters } from "./export";
export {
  type DeadLetterFilter,
  deadLetterFilterSchema,
  type DeadLetterListQuery,
  deadLetterListQuerySchema,
  type DeadLetterRow,
  listDeadLetters,
} from "./list";
