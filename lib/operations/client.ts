// lib/operations's surface for client components (no server code): what other folders and the browser may import.
export {
  acceptedSchema,
  type HistoryPage,
  historyPageSchema,
  historyQuerySchema,
  type HistoryRow,
  historyRowSchema,
  idParam,
  lastRunSchema,
  type ReconcileBody,
  reconcileBodySchema,
  type ReplayBody,
  replayBodySchema,
  type Run,
  RUN_KINDS,
  runListQuerySchema,
  runParamsSchema,
  runSchema,
  runViewSchema,
  startedSchema,
} from "./contracts";
export { type Described, describeRun, type SubscriptionName } from "./describe";
