// GET /api/jobs/:jobId — one job (platform status, outcome, lineage) with its events and the page's timeline, or 404
import { z } from "zod";
import { operatorRoute } from "@/lib/http";
import { getJobWithTimeline } from "@/lib/jobs";

export const dynamic = "force-dynamic";

const params = z.object({ jobId: z.string().min(1).max(200) });

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "One job (platform status, outcome, lineage) with its events and timeline",
    errors: [404],
    params,
  },
  ({ params }) => getJobWithTimeline(params.jobId),
);
