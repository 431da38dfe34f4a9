import "server-only";
// lib/jobs's surface: what other folders import from it (its files import each other directly).
export * from "./client";
export { cancelJob } from "./cancel";
export {
  type FailedItem,
  getJobDetail,
  getJobWithTimeline,
  type JobDetail,
  jobIdSchema,
  type ResultPreview,
} from "./detail";
export { exportJobs, jobExportQuerySchema } from "./export";
export { createJobHandler, type JobHandlerOptions } from "./handle-job";
export { type JobRow, type JobsPage, listJobsPage, parseJobsSearch } from "./list";
export { addEvent } from "./outcomes";
export { jobDedupeKey, PROCESS_JOB, processJobItem, processJobPayload } from "./process-job";
export { jobListQuerySchema, listJobs } from "./query";
export { sendToPlatform, storedRequest, type SubmitRequest, submitRequestSchema } from "./requests";
export { resubmitJob } from "./resubmit";
export { recordSubmission, submitJob } from "./submit";
export type { TimelineEntry } from "./timeline";
