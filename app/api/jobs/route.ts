// GET /api/jobs — filtered, keyset-paginated job list; POST /api/jobs — submit an async job to the platform
import { operatorRoute, PLATFORM_ERRORS } from "@/lib/http";
import { NextResponse } from "next/server";
import { jobListQuerySchema, listJobs, submitJob, submitRequestSchema } from "@/lib/jobs";

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
