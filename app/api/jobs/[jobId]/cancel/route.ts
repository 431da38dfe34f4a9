// POST /api/jobs/:jobId/cancel — cancel a queued or running batch/crawl job on the platform; outcome `cancelled`
import { operatorRoute, PLATFORM_ERRORS } from "@/lib/http";
import { z } from "zod";
import { cancelJob } from "@/lib/jobs";

export const dynamic = "force-dynamic";

const params = z.object({
  jobId: z.string().trim().min(1, { error: "jobId is empty" }).max(200, { error: "jobId is too long" }),
});

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Cancel a queued or running batch/crawl job on the platform; outcome cancelled",
    errors: [...PLATFORM_ERRORS],
    params,
  },
  ({ params, actor, req }) => cancelJob(params.jobId, { actor, signal: req.signal }),
);
