// GET /api/jobs/export — the Jobs list as a streamed CSV download, with the list's filters (status, outcome, kind, q, from, to, sort)
import { operatorRoute } from "@/lib/http";
import { csvResponse } from "@/lib/results";
import { exportJobs, jobExportQuerySchema } from "@/lib/jobs";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "The Jobs list as a streamed CSV download, with the list's filters",
    produces: "csv",
    query: jobExportQuerySchema,
  },
  async ({ query }) => csvResponse(await exportJobs(query)),
);
