// GET /api/jobs/:jobId — one job (platform status, outcome, lineage) with its timeline, or 404
import { z } from "zod";
import { operatorRoute } from "@/lib/http/operator-route";
import { getJob } from "@/lib/jobs/query";

export const dynamic = "force-dynamic";

const params = z.object({ jobId: z.string().min(1).max(200) });

export const GET = operatorRoute({ role: "viewer", params }, ({ params }) => getJob(params.jobId));
