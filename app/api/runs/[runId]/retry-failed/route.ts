// POST /api/runs/:runId/retry-failed — the run's failed URLs go round again
import { z } from "zod";
import { operatorRoute } from "@/lib/http";
import { retryFailed } from "@/lib/runs";

export const dynamic = "force-dynamic";

const params = z.object({ runId: z.string().min(1).max(100) });

export const POST = operatorRoute(
  { role: "operator", summary: "The run's failed URLs go round again", params, errors: [404, 409] },
  ({ params, actor }) => retryFailed(params.runId, actor),
);
