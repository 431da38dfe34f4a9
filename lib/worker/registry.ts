import "server-only";
import { forwardEventKind } from "../outbound";
import {
  createJobHandler,
  type JobHandlerOptions,
  PROCESS_JOB,
  processJobPayload,
  recordSubmission,
  sendToPlatform,
} from "../jobs";
import { createRegistry, defineKind } from "../queue";
import { classifyRun } from "../collections";
import { CLASSIFY_RUN, classifyRunPayload, createRunSubmitHandler, RUN_SUBMIT, runSubmitPayload } from "../runs";

// Every queue item kind the worker runs: each kind's item (name and payload schema, defined once
// beside its producer) paired with its handler.

/** Fetch a job's state from the platform and settle it (stored / resubmitted / dead-lettered / cancelled). */
export function processJobKind(opts: JobHandlerOptions = {}) {
  return defineKind({ name: PROCESS_JOB, schema: processJobPayload, handle: createJobHandler(opts) });
}

/** Send a run's pending and retrying URLs in chunks, and stay with the run until it is final. */
export function runSubmitKind() {
  const handle = createRunSubmitHandler({
    send: (client, req, signal) => sendToPlatform(client, req, signal),
    record: (tx, req, accepted) => recordSubmission(tx, req, accepted),
  });
  return defineKind({ name: RUN_SUBMIT, schema: runSubmitPayload, handle });
}

/** Compare a completed collection run with the collection's previous one (new / changed / unchanged / gone). */
export function classifyRunKind() {
  return defineKind({
    name: CLASSIFY_RUN,
    schema: classifyRunPayload,
    handle: async ({ runId }) => {
      await classifyRun(runId);
    },
  });
}

export const workerRegistry = createRegistry([
  processJobKind(),
  forwardEventKind(),
  runSubmitKind(),
  classifyRunKind(),
]);
