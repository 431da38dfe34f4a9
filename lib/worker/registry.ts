import "server-only";
import { createRegistry, defineKind } from "../queue";
import { forwardEventKind } from "../forwarding/handler";
import { createJobHandler, processJobPayload, type JobHandlerOptions } from "../jobs/handle-job";

/** Fetch a job's state from the platform and settle it (stored / resubmitted / dead-lettered / cancelled). */
export function processJobKind(opts: JobHandlerOptions = {}) {
  return defineKind({ name: "process_job", schema: processJobPayload, handle: createJobHandler(opts) });
}

/** Every queue item kind the worker runs. Later features (replay, reconcile) register theirs here. */
export const pipelineRegistry = createRegistry([processJobKind(), forwardEventKind()]);
