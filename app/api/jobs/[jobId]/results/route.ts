// GET /api/jobs/:jobId/results — one job's stored results with full content, keyset-paged, or 404
import { seesInternalDetail } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";
import { jobResultsParamsSchema, jobResultsQuerySchema, listJobResults } from "@/lib/results";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "One job's stored results with full content, keyset-paged",
    errors: [404],
    params: jobResultsParamsSchema,
    query: jobResultsQuerySchema,
  },
  ({ params, query, principal }) => listJobResults(params.jobId, query, { detail: seesInternalDetail(principal.role) }),
);
