import "server-only";
import { forwardEventKind } from "../outbound/handler";
import { createJobHandler, type JobHandlerOptions } from "../jobs/handle-job";
import { PROCESS_JOB, processJobPayload } from "../jobs/process-job";
import { createRegistry, defineKind } from "../queue";

// Every queue item kind the worker runs: each kind's item (name and payload schema, defined once
// beside its producer) paired with its handler.

/** Fetch a job's state from the platform and settle it (stored / resubmitted / dead-lettered / cancelled). */
export function processJobKind(opts: JobHandlerOptions = {}) {
  return defineKind({ name: PROCESS_JOB, schema: processJobPayload, handle: createJobHandler(opts) });
}

export const workerRegistry = createRegistry([processJobKind(), forwardEventKind()]);
