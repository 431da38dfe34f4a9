// GET /api/jobs — filtered, keyset-paginated job list; POST /api/jobs — submit an async job to the platform
import { PLATFORM_ERRORS } from "@/lib/http/route-doc";
import { NextResponse } from "next/server";
import { operatorRoute } from "@/lib/http/operator-route";
import { jobListQuerySchema, listJobs } from "@/lib/jobs/query";
import { submitRequestSchema } from "@/lib/jobs/requests";
import { submitJob } from "@/lib/jobs/submit";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  { role: "viewer", summary: "Jobs, filtered, keyset-paged", query: jobListQuerySchema },
  ({ query }) => listJobs(query),
);

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Submit an async job to the platform",
    status: 201,
    errors: [...PLATFORM_ERRORS],
    body: submitRequestSchema,
  },
  async ({ body, actor, req }) =>
    NextResponse.json(await submitJob(body, { actor, signal: req.signal }), { status: 201 }),
);
