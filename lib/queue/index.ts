import "server-only";

export { createAckBatch, type AckBatch } from "./ack-batch";
export { enqueue, enqueueMany } from "./enqueue";
export {
  ack,
  ackMany,
  ackStatement,
  ackWithin,
  backoffMs,
  claim,
  deadLetter,
  describeError,
  extendLease,
  release,
  reschedule,
  retry,
  type ClaimOptions,
  type ErrorInfo,
} from "./lease";
export {
  createRegistry,
  defineKind,
  PermanentFailure,
  rescheduleIn,
  type AckedWithin,
  type HandlerContext,
  type JobKindDef,
  type Registry,
  type Reschedule,
} from "./registry";
export { runItem, type ItemOutcome, type RunItemOptions } from "./run-item";
export { ackAll, claimByDedupeKeys, releaseAll, rescheduleAll, type ClaimByKeysOptions } from "./siblings";
export { queueStats, type QueueStats } from "./stats";
export { itemJobSchema, PRIORITY_BACKLOG, PRIORITY_FRESH } from "./types";
export type { ClaimedItem, DbOrTx, EnqueueItem, EnqueueOptions, ItemJob, QueueState } from "./types";
export { listenForEnqueues, onQueueWake, QUEUE_CHANNEL, wakeWorkers } from "./wake";
