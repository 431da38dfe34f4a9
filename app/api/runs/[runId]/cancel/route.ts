// POST /api/runs/:runId/cancel — stop the run: URLs not stored become failed (cancelled), its running batch jobs are cancelled
import { z } from "zod";
import { operatorRoute } from "@/lib/http";
import { cancelRun, runViewSchema } from "@/lib/runs";

export const dynamic = "force-dynamic";

const params = z.object({ runId: z.string().min(1).max(100) });

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Stop the run: its running batch jobs are cancelled, URLs not stored become failed (cancelled)",
    params,
    answer: runViewSchema,
    errors: [404, 409],
  },
  ({ params, actor, req }) => cancelRun(params.runId, actor, req.signal),
);
