import { z } from "zod";

// Answers of the job actions, shared by the routes' domain functions and the browser (which parses
// them): POST /api/jobs and POST /api/jobs/{jobId}/cancel.

/** 201 from POST /api/jobs: the job as the platform accepted it. */
export const submittedJobSchema = z.object({
  jobId: z.string(),
  kind: z.enum(["extract", "batch", "crawl"]),
  status: z.string(),
  outcome: z.string(),
});
export type SubmittedJob = z.infer<typeof submittedJobSchema>;

/** 200 from POST /api/jobs/{jobId}/cancel; inFlight: the URLs or pages the platform still had running. */
export const cancelledJobSchema = z.object({
  jobId: z.string(),
  kind: z.string(),
  outcome: z.literal("cancelled"),
  platformStatus: z.string(),
  inFlight: z.number().int().nullable(),
});
export type Cancelled = z.infer<typeof cancelledJobSchema>;
